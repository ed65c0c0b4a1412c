import { lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
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

function runCleanups(): void {
  for (const cleanup of cleanups) {
    try {
      cleanup()
    } catch {
      // best effort: the process is going away
    }
  }
  cleanups.clear()
  for (const file of inFlight) rmSync(file, { force: true })
}

/** On SIGINT/SIGTERM/SIGHUP: close what is open, remove partial files, exit 130/143/129 as shells expect. */
export function install(): void {
  if (installed) return
  installed = true
  const handler = (signal: NodeJS.Signals) => {
    runCleanups()
    process.stderr.write(`\ninterrupted (${signal}): nothing was left behind\n`)
    process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143)
  }
  process.once('SIGINT', handler)
  process.once('SIGTERM', handler)
  process.once('SIGHUP', handler)
  // Any other way out that runs JavaScript (process.exit, an uncaught error) removes temporary files too.
  process.once('exit', runCleanups)
}

/** Temporary folders of this tool, named with the pid of the run that made them. */
const OWN_TEMP = /^chainnode-(read|bundle)-(\d+)-[A-Za-z0-9]{6}$/
/** A folder this old whose run is gone was left by a killed run (SIGKILL, a power cut): no signal reached it. */
export const STALE_AFTER_MS = 10 * 60 * 1000

export function makeTempDir(kind: 'read' | 'bundle'): string {
  return mkdtempSync(path.join(tmpdir(), `chainnode-${kind}-${process.pid}-`))
}

/** Remove the temporary folders that killed runs of this tool left: by name, owner and age, nothing else. */
export function sweepStaleTempDirs(now = Date.now(), dir = tmpdir()): string[] {
  const removed: string[] = []
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return removed
  }
  for (const name of names) {
    const match = OWN_TEMP.exec(name)
    if (!match) continue
    const full = path.join(dir, name)
    try {
      const stats = lstatSync(full)
      const mine = process.getuid === undefined || stats.uid === process.getuid()
      if (!stats.isDirectory() || !mine || now - stats.mtimeMs < STALE_AFTER_MS || running(Number(match[2]))) continue
      rmSync(full, { recursive: true, force: true })
      removed.push(full)
    } catch {
      // another run removed it first, or it is not ours to remove
    }
  }
  return removed
}

function running(pid: number): boolean {
  if (pid === process.pid) return true
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
