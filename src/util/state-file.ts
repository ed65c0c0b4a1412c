import { mkdirSync, readFileSync, promises as fsp } from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from './fs-atomic.js'

// Apart from state-dir.ts, which every start loads: reading and writing state is for the runs that keep some.
/** A JSON file of the state directory, or `empty` when it is missing or damaged: what is kept there only saves work. */
export function readStateFile<T>(file: string, empty: T): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch {
    return empty
  }
}

/** Write a JSON file of the state directory atomically; a read-only home must not fail the run that writes it. */
export async function writeStateFile(file: string, value: unknown): Promise<void> {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    await writeFileAtomic(file, (tmp) => fsp.writeFile(tmp, JSON.stringify(value)))
  } catch {
    // Kept only to save work next time.
  }
}
