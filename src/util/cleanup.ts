import { constants, lstatSync, mkdtempSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { writeStderr } from './output.js'

const cleanups = new Set<() => void>()
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
let wanted = false
let attached = false

/*
 * A signal listener only runs when the event loop turns: while one is attached, Ctrl-C waits for the end
 * of whatever synchronous work is going on (parsing a 128 MiB file, rules over 300,000 objects), seconds.
 * So the listeners are attached only while something needs undoing (a port-forward, a partial file, a
 * temporary folder). The rest of the time no listener is attached, and the kernel's default action ends
 * the process at once, in the middle of any work (Node resets a signal to its default disposition when
 * its last listener goes); the shell sees 130/143 as with the handler. Nothing that must be undone may
 * therefore exist without being registered here.
 */

/**
 * Register something to undo if the user presses Ctrl-C (close a port-forward, remove a partial file);
 * call what it returns once it no longer needs undoing. Used as a library (no install()), nothing is hooked.
 */
export function onInterrupt(cleanup: () => void): () => void {
  cleanups.add(cleanup)
  attachWhileNeeded()
  return () => {
    cleanups.delete(cleanup)
    attachWhileNeeded()
  }
}

/** Whether a signal now runs the cleanups (true) or ends the process by the kernel's default action. */
export function interruptHandled(): boolean {
  return attached
}

function attachWhileNeeded(): void {
  const needed = wanted && cleanups.size > 0
  if (needed === attached) return
  attached = needed
  for (const signal of SIGNALS) {
    if (needed) process.on(signal, onSignal)
    else process.removeListener(signal, onSignal)
  }
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
}

/** On SIGINT/SIGTERM/SIGHUP with something to undo: undo it, exit 130/143/129 as shells expect. */
function onSignal(signal: NodeJS.Signals): void {
  runCleanups()
  writeStderr(`\ninterrupted (${signal}): nothing was left behind\n`)
  process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143)
}

/** Let Ctrl-C undo what is registered (a command run); once is enough. */
export function install(): void {
  if (wanted) return
  wanted = true
  attachWhileNeeded()
  // Any other way out that runs JavaScript (process.exit, an uncaught error) undoes them too.
  process.once('exit', runCleanups)
}

/** Temporary files and folders of this tool, named with the pid of the run that made them. */
const OWN_TEMP = /^chainnode-(read|bundle)-(\d+)-[A-Za-z0-9]{6}$/
/** One this old whose run is gone was left by a killed run (SIGKILL, a power cut): no signal reached it. */
export const STALE_AFTER_MS = 10 * 60 * 1000

export function makeTempDir(kind: 'bundle'): string {
  return mkdtempSync(path.join(tmpdir(), `chainnode-${kind}-${process.pid}-`))
}

const NAME_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * A temporary file that has no name: it is unlinked as soon as it is open, so the kernel frees it when
 * the descriptor closes, on any death of the process (SIGKILL included), and nothing needs undoing.
 */
export function openNamelessTempFile(): number {
  for (;;) {
    const suffix = Array.from(process.getBuiltinModule('node:crypto').randomBytes(6), (byte) => NAME_CHARS[byte % NAME_CHARS.length]).join('')
    const file = path.join(tmpdir(), `chainnode-read-${process.pid}-${suffix}`)
    let fd: number
    try {
      fd = openSync(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue
      throw error
    }
    unlinkSync(file)
    return fd
  }
}

/**
 * Remove what killed runs of this tool left in the temporary folder, by name, owner and age, nothing else:
 * staging folders of `collect`, a nameless file caught between its creation and its unlink, and the
 * `chainnode-read-*` folders of versions that unpacked bundles into a folder.
 */
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
      if (!(stats.isDirectory() || stats.isFile()) || !mine || now - stats.mtimeMs < STALE_AFTER_MS || running(Number(match[2]))) continue
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
