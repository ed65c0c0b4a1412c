import { rm, rename } from 'node:fs/promises'
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
    await rename(tmp, target)
  } catch (error) {
    await rm(tmp, { force: true })
    throw error
  } finally {
    inFlight.delete(tmp)
  }
}
