import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, readdirSync, statSync, type Stats } from 'node:fs'
import path from 'node:path'
import { usageError } from '../util/errors.js'
import { limitError, type ReadLimits } from '../util/limits.js'
import type { ArchiveIndex } from './tar-reader.js'

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK

export interface BundleEntry {
  name: string
  folder: boolean
}

interface OpenFile {
  size: number
  read(): Buffer
  close(): void
}

/**
 * The files of one bundle, read as a stranger wrote them: every path the bundle names stays inside it,
 * only regular files are read (never a link, a device or a FIFO), and the limits on sizes and counts
 * hold across the whole read. A folder bundle is read in place, a .tgz from the one file it unpacked to.
 */
export abstract class BundleFiles {
  private bytes = 0
  private files = 0

  constructor(
    readonly label: string,
    readonly limits: ReadLimits,
  ) {}

  /** Whether the bundle has this regular file (a link on the way is refused). */
  abstract isFile(relative: string): boolean
  /** Names in a folder of the bundle (none when it is absent), refusing links. */
  abstract list(relative: string): BundleEntry[]
  /** The files below one folder of this bundle, as a bundle of their own (with limits counted afresh). */
  abstract within(folder: string): BundleFiles
  /** A regular file of the bundle, or undefined when it is absent; anything else is refused. */
  protected abstract open(relative: string): OpenFile | undefined

  /** The text of a file named by the bundle, or undefined when it is absent. */
  readText(relative: string, limit: 'entryBytes' | 'logBytes' = 'entryBytes'): string | undefined {
    const file = this.open(relative)
    if (!file) return undefined
    try {
      if (file.size > this.limits[limit]) throw limitError(limit, this.limits, `${this.label}: ${JSON.stringify(relative)} (${file.size} bytes)`)
      if (++this.files > this.limits.entries) throw limitError('entries', this.limits, `${this.label} (it holds more)`)
      this.bytes += file.size
      if (this.bytes > this.limits.bundleBytes) throw limitError('bundleBytes', this.limits, `${this.label} (its files hold more)`)
      return file.read().toString('utf8')
    } finally {
      file.close()
    }
  }

  /** A path the bundle names, as a clean relative path inside it, or refused. */
  protected clean(relative: string): string {
    const normal = path.posix.normalize(relative)
    if (relative.includes('\0') || path.isAbsolute(relative) || normal.split('/').includes('..'))
      throw this.refused(`it names a path outside the bundle (${JSON.stringify(relative)})`)
    return normal
  }

  protected listed<T>(relative: string, entries: T[]): T[] {
    if (entries.length > this.limits.entries) throw limitError('entries', this.limits, `${this.label}: ${JSON.stringify(relative)} (${entries.length} entries)`)
    return entries
  }

  protected refused(what: string) {
    return usageError(
      `${this.label} is refused: ${what}`,
      'a bundle is read without following links and only from its own regular files; do not trust this file',
    )
  }
}

/** A bundle folder, read in place without following links. */
export class FolderFiles extends BundleFiles {
  constructor(
    readonly top: string,
    label: string,
    limits: ReadLimits,
  ) {
    super(label, limits)
  }

  isFile(relative: string): boolean {
    return this.walk(this.resolve(relative))?.isFile() ?? false
  }

  list(relative: string): BundleEntry[] {
    const full = this.resolve(relative)
    const stats = this.walk(full)
    if (!stats) return []
    if (!stats.isDirectory()) throw this.refused(`${relative} is not a folder`)
    const entries = readdirSync(full, { withFileTypes: true })
    this.listed(relative, entries)
    return entries.map((entry) => {
      if (entry.isSymbolicLink()) throw this.refused(`${path.posix.join(relative, entry.name)} is a symbolic link`)
      return { name: entry.name, folder: entry.isDirectory() }
    })
  }

  within(folder: string): BundleFiles {
    return new FolderFiles(this.resolve(folder), this.label, this.limits)
  }

  protected open(relative: string): OpenFile | undefined {
    const full = this.resolve(relative)
    const stats = this.walk(full)
    if (!stats) return undefined
    if (!stats.isFile()) throw this.refused(`${relative} is not a regular file`)
    const fd = openSync(full, READ_FLAGS)
    try {
      const opened = fstatSync(fd)
      if (!opened.isFile()) throw this.refused(`${relative} is not a regular file`)
      return { size: opened.size, read: () => readAt(fd, opened.size, 0), close: () => closeSync(fd) }
    } catch (error) {
      closeSync(fd)
      throw error
    }
  }

  /** A path the bundle names, inside the bundle, or refused. */
  private resolve(relative: string): string {
    const full = path.resolve(this.top, this.clean(relative))
    if (!isWithin(path.resolve(this.top), full)) throw this.refused(`it names a path outside the bundle (${JSON.stringify(relative)})`)
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
}

/** A .tgz bundle, from the one file it was unpacked to and its index (held in memory; the contents are not). */
export class ArchiveFiles extends BundleFiles {
  constructor(
    private readonly index: ArchiveIndex,
    label: string,
    limits: ReadLimits,
    private readonly top = '.',
  ) {
    super(label, limits)
  }

  isFile(relative: string): boolean {
    return this.index.files.has(this.key(relative))
  }

  list(relative: string): BundleEntry[] {
    const key = this.key(relative)
    const names = this.index.folders.get(key)
    if (!names) {
      if (this.index.files.has(key)) throw this.refused(`${relative} is not a folder`)
      return []
    }
    return this.listed(
      relative,
      [...names].map(([name, folder]) => ({ name, folder })),
    )
  }

  within(folder: string): BundleFiles {
    return new ArchiveFiles(this.index, this.label, this.limits, this.key(folder))
  }

  protected open(relative: string): OpenFile | undefined {
    const key = this.key(relative)
    if (this.index.folders.has(key)) throw this.refused(`${relative} is not a regular file`)
    const entry = this.index.files.get(key)
    return entry && { size: entry.size, read: () => readAt(this.index.fd, entry.size, entry.offset), close: () => undefined }
  }

  private key(relative: string): string {
    // "logs/" names the folder "logs", as a folder bundle reads it.
    const normal = this.clean(relative).replace(/\/+$/, '') || '.'
    return this.top === '.' ? normal : normal === '.' ? this.top : `${this.top}/${normal}`
  }
}

/** `size` bytes from `offset` (fewer if the file is shorter now). */
function readAt(fd: number, size: number, offset: number): Buffer {
  const buffer = Buffer.alloc(size)
  let read = 0
  while (read < size) {
    const n = readSync(fd, buffer, read, size - read, offset + read)
    if (n === 0) break
    read += n
  }
  return buffer.subarray(0, read)
}

const isWithin = (top: string, full: string) => full === top || full.startsWith(`${top}${path.sep}`)
