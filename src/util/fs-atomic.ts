import { promises as fsp, rmSync } from 'node:fs'
import path from 'node:path'
import { onInterrupt } from './cleanup.js'

/**
 * Produce `target` through a temporary sibling that is renamed into place only when `write` succeeds,
 * so an interrupted or failed run never leaves a partial file under the final name.
 */
export async function writeFileAtomic(target: string, write: (tmpPath: string) => Promise<void>): Promise<void> {
  const tmp = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.partial`)
  // While it exists, Ctrl-C removes it before the process ends (src/util/cleanup.ts).
  const release = onInterrupt(() => rmSync(tmp, { force: true }))
  try {
    await write(tmp)
    await fsp.rename(tmp, target)
  } catch (error) {
    await fsp.rm(tmp, { force: true })
    throw error
  } finally {
    release()
  }
}
