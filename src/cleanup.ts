import { rmSync } from 'node:fs'
import { inFlight } from './fs-atomic.js'

const cleanups = new Set<() => void>()
let installed = false

/**
 * Register something to undo if the user presses Ctrl-C (close a port-forward, a listener).
 * The commands install the signal handler (BaseCommand); used as a library, nothing is hooked.
 */
export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}

/** On SIGINT/SIGTERM: close what is open, remove partial files, exit 130/143 as shells expect. */
export function install(): void {
  if (installed) return
  installed = true
  const handler = (signal: NodeJS.Signals) => {
    for (const cleanup of cleanups) {
      try {
        cleanup()
      } catch {
        // best effort: the process is going away
      }
    }
    for (const file of inFlight) rmSync(file, { force: true })
    process.stderr.write(`\ninterrupted (${signal}): nothing was left behind\n`)
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('SIGINT', handler)
  process.once('SIGTERM', handler)
}
