import { promises as fsp } from 'node:fs'
import path from 'node:path'

/** Paths of in-flight temporary files, removed if the process is interrupted. */
export const inFlight = new Set<string>()

/**
 * Produce `target` through a temporary sibling that is renamed into place only when `write` succeeds,
 * so an interrupted or failed run never leaves a partial file under the final name.
 */
export async function writeFileAtomic(target: string, write: (tmpPath: string) => Promise<void>): Promise<void> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`)
  inFlight.add(tmp)
  try {
    await write(tmp)
    await fsp.rename(tmp, target)
  } catch (error) {
    await fsp.rm(tmp, { force: true })
    throw error
  } finally {
    inFlight.delete(tmp)
  }
}
