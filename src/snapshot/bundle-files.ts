import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readdirSync, statSync, type Stats } from 'node:fs'
import path from 'node:path'
import { usageError } from '../errors.js'
import { limitError, type ReadLimits } from '../limits.js'

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

/**
 * The files of one bundle folder, read as a stranger wrote them: every path the bundle names stays
 * inside it, no symbolic link is followed, only regular files are read (never a device or a FIFO),
 * and the limits on sizes and counts hold across the whole read.
 */
export class BundleFiles {
  private bytes = 0
  private files = 0

  constructor(
    readonly top: string,
    readonly label: string,
    readonly limits: ReadLimits,
  ) {}

  /** Whether the bundle has this regular file (a link on the way is refused). */
  isFile(relative: string): boolean {
    return this.walk(this.resolve(relative))?.isFile() ?? false
  }

  /** The text of a file named by the bundle, or undefined when it is absent. */
  readText(relative: string, limit: 'entryBytes' | 'logBytes' = 'entryBytes'): string | undefined {
    const full = this.resolve(relative)
    const stats = this.walk(full)
    if (!stats) return undefined
    if (!stats.isFile()) throw this.refused(`${relative} is not a regular file`)
    const fd = openSync(full, READ_FLAGS)
    try {
      const size = fstatSync(fd).size
      if (!fstatSync(fd).isFile()) throw this.refused(`${relative} is not a regular file`)
      if (size > this.limits[limit]) throw limitError(limit, this.limits, `${this.label}: ${relative} (${size} bytes)`)
      if (++this.files > this.limits.entries) throw limitError('entries', this.limits, `${this.label} (it holds more)`)
      this.bytes += size
      if (this.bytes > this.limits.bundleBytes) throw limitError('bundleBytes', this.limits, `${this.label} (its files hold more)`)
      const buffer = Buffer.alloc(size)
      let read = 0
      while (read < size) {
        const n = readSync(fd, buffer, read, size - read, null)
        if (n === 0) break
        read += n
      }
      return buffer.subarray(0, read).toString('utf8')
    } finally {
      closeSync(fd)
    }
  }

  /** Names in a folder of the bundle (none when it is absent), refusing links. */
  list(relative: string): { name: string; folder: boolean }[] {
    const full = this.resolve(relative)
    const stats = this.walk(full)
    if (!stats) return []
    if (!stats.isDirectory()) throw this.refused(`${relative} is not a folder`)
    const entries = readdirSync(full, { withFileTypes: true })
    if (entries.length > this.limits.entries) throw limitError('entries', this.limits, `${this.label}: ${relative} (${entries.length} entries)`)
    return entries.map((entry) => {
      if (entry.isSymbolicLink()) throw this.refused(`${path.posix.join(relative, entry.name)} is a symbolic link`)
      return { name: entry.name, folder: entry.isDirectory() }
    })
  }

  /** A path the bundle names, inside the bundle, or refused. */
  resolve(relative: string): string {
    const normal = path.posix.normalize(relative)
    const full = path.resolve(this.top, normal)
    if (relative.includes('\0') || path.isAbsolute(relative) || normal.split('/').includes('..') || !isWithin(path.resolve(this.top), full))
      throw this.refused(`it names a path outside the bundle (${JSON.stringify(relative)})`)
    return full
  }

  /** lstat of each step below the top: undefined when absent; a link on the way is refused, never followed. */
  private walk(full: string): Stats | undefined {
    // The top is the folder the user named: it may be a link of theirs.
    if (full === path.resolve(this.top)) return statSync(full, { throwIfNoEntry: false })
    const steps = path.relative(path.resolve(this.top), full).split(path.sep)
    let at = path.resolve(this.top)
    let stats: Stats | undefined
    for (const [i, step] of steps.entries()) {
      at = path.join(at, step)
      stats = lstatSync(at, { throwIfNoEntry: false })
      if (!stats) return undefined
      if (stats.isSymbolicLink()) throw this.refused(`${steps.slice(0, i + 1).join('/')} is a symbolic link`)
      if (i < steps.length - 1 && !stats.isDirectory()) return undefined
    }
    return stats
  }

  private refused(what: string) {
    return usageError(
      `${this.label} is refused: ${what}`,
      'a bundle is read without following links and only from its own regular files; do not trust this file',
    )
  }
}

const isWithin = (top: string, full: string) => full === top || full.startsWith(`${top}${path.sep}`)
