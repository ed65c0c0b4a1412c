import { createReadStream, writeSync } from 'node:fs'
import path from 'node:path'
import { usageError } from '../util/errors.js'
import { RATIO_FLOOR_BYTES, limitError, type ReadLimits } from '../util/limits.js'

const BLOCK = 512
/** PAX and GNU long-name records are a few hundred bytes; more is not a bundle. */
const MAX_META_BYTES = 64 * 1024

/** Where each file of an unpacked archive is in the one file it was unpacked to. */
export interface ArchiveIndex {
  fd: number
  /** By clean relative path ("top/resources/ns/Pod.json"): offset and size in `fd`. */
  files: Map<string, { offset: number; size: number }>
  /** By clean relative path, "." for the top: the names in that folder, true for a folder. */
  folders: Map<string, Map<string, boolean>>
}

/**
 * Unpack a .tgz into the file `fd`, one entry after the other, and index where each one is: streaming,
 * each chunk is handled as it leaves gunzip, in time linear in its size. Only regular files and folders
 * are accepted, each inside the archive; every limit is checked as the bytes come, and the first one
 * crossed stops the read. (tar's own parser slows down quadratically on blocks of zeros.)
 */
export async function unpackTarGz(file: string, fd: number, limits: ReadLimits, label: string): Promise<ArchiveIndex> {
  // The ratio is of what was unpacked to what was read so far: a bomb is caught where it starts.
  let packed = 0
  const input = createReadStream(file)
  const gunzip = process.getBuiltinModule('node:zlib').createGunzip()
  input.on('data', (chunk) => (packed += chunk.length))
  input.on('error', (error) => gunzip.destroy(error))
  input.pipe(gunzip)
  const tar = new TarUnpacker(fd, limits, label)
  let unpacked = 0
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      unpacked += chunk.length
      if (unpacked > limits.bundleBytes) throw limitError('bundleBytes', limits, `${label} (it unpacks to more)`)
      if (unpacked > RATIO_FLOOR_BYTES && unpacked > limits.ratio * packed)
        throw limitError('ratio', limits, `${label} (${formatRatio(unpacked / packed)} so far)`)
      // The end-of-archive marker: what follows is padding, not worth unpacking.
      if (tar.write(chunk)) return tar.index
    }
    tar.finish()
    return tar.index
  } finally {
    input.destroy()
    gunzip.destroy()
  }
}

const formatRatio = (ratio: number) => `${Math.round(ratio)}:1`

type Mode = 'header' | 'file' | 'meta' | 'skip'

class TarUnpacker {
  private mode: Mode = 'header'
  private readonly header = Buffer.alloc(BLOCK)
  private headerFill = 0
  private zeroBlocks = 0
  /** Bytes of the current entry still to come, and the padding after them. */
  private left = 0
  private padding = 0
  /** Bytes written to the file so far: where the next entry starts. */
  private written = 0
  private meta: Buffer[] = []
  private metaKind: 'pax' | 'longname' | 'ignore' = 'ignore'
  private nextPath: string | undefined
  private nextSize: number | undefined
  private entries = 0
  readonly index: ArchiveIndex

  constructor(
    fd: number,
    private readonly limits: ReadLimits,
    private readonly label: string,
  ) {
    this.index = { fd, files: new Map(), folders: new Map([['.', new Map()]]) }
  }

  /** Consume one chunk; true once the end-of-archive marker is seen. */
  write(chunk: Buffer): boolean {
    let at = 0
    while (at < chunk.length) {
      if (this.mode === 'header') {
        const take = Math.min(BLOCK - this.headerFill, chunk.length - at)
        chunk.copy(this.header, this.headerFill, at, at + take)
        this.headerFill += take
        at += take
        if (this.headerFill < BLOCK) break
        this.headerFill = 0
        if (this.readHeader()) return true
        continue
      }
      const take = Math.min(this.left + this.padding, chunk.length - at)
      const data = Math.min(take, this.left)
      if (data > 0) {
        if (this.mode === 'file') this.append(chunk.subarray(at, at + data))
        else if (this.mode === 'meta') this.meta.push(chunk.subarray(at, at + data))
      }
      this.left -= data
      this.padding -= take - data
      at += take
      if (this.left === 0 && this.padding === 0) this.endEntry()
    }
    return false
  }

  finish(): void {
    if (this.mode !== 'header' || this.headerFill !== 0)
      throw usageError(`${this.label} is not a readable bundle: the archive ends in the middle of a file`, 'it was cut short; collect it again')
  }

  private append(data: Buffer): void {
    for (let done = 0; done < data.length;) done += writeSync(this.index.fd, data, done, data.length - done)
    this.written += data.length
  }

  private readHeader(): boolean {
    const h = this.header
    if (h.every((byte) => byte === 0)) return ++this.zeroBlocks >= 2
    this.zeroBlocks = 0
    if (!checksumOk(h)) throw this.damaged('a header with a wrong checksum (this is not a tar archive, or it is damaged)')
    const type = String.fromCharCode(h[156] || 0x30)
    const size = this.nextSize ?? readNumber(h.subarray(124, 136))
    if (size === undefined) throw this.damaged('an entry with an unreadable size')
    const prefix = h.subarray(257, 262).toString('latin1') === 'ustar' ? cString(h.subarray(345, 500)) : ''
    const name = this.nextPath ?? (prefix ? `${prefix}/${cString(h.subarray(0, 100))}` : cString(h.subarray(0, 100)))
    this.nextPath = this.nextSize = undefined
    if (type === 'x' || type === 'g' || type === 'L') {
      if (size > MAX_META_BYTES) throw this.damaged(`an extended header of ${size} bytes`)
      this.metaKind = type === 'x' ? 'pax' : type === 'L' ? 'longname' : 'ignore'
      return this.start('meta', size)
    }
    if (type === '1' || type === '2' || type === 'K') throw this.refused(`holds a link (${JSON.stringify(name)}); a bundle holds only files and folders`)
    if (type !== '0' && type !== '7' && type !== '5')
      throw this.refused(
        `holds ${type === '3' || type === '4' ? 'a device' : type === '6' ? 'a FIFO' : `an entry of type ${JSON.stringify(type)}`} (${JSON.stringify(name)}); a bundle holds only files and folders`,
      )
    if (++this.entries > this.limits.entries) throw limitError('entries', this.limits, `${this.label} (it holds more)`)
    // `tar czf b.tgz .` starts with the folder "./": the top itself, nothing to make.
    if (type === '5' && path.posix.normalize(name).replace(/\/+$/, '') === '.') return this.start('skip', size)
    const target = this.inside(name)
    if (type === '5') {
      this.addFolder(target, name)
      return this.start('skip', size)
    }
    if (size > this.limits.entryBytes) throw limitError('entryBytes', this.limits, `${this.label}: ${JSON.stringify(name)} (${size} bytes)`)
    if (/\.log$/.test(name) && size > this.limits.logBytes) throw limitError('logBytes', this.limits, `${this.label}: ${JSON.stringify(name)} (${size} bytes)`)
    this.addFolder(path.posix.dirname(target), name)
    if (this.index.folders.has(target)) throw this.damaged(`an entry that is both a file and a folder (${JSON.stringify(name)})`)
    // A name given twice: the later entry wins, as when tar unpacks over the first.
    this.index.folders.get(path.posix.dirname(target))!.set(path.posix.basename(target), false)
    this.index.files.set(target, { offset: this.written, size })
    return this.start('file', size)
  }

  private start(mode: Mode, size: number): boolean {
    this.mode = mode
    this.left = size
    this.padding = (BLOCK - (size % BLOCK)) % BLOCK
    if (size === 0) this.endEntry()
    return false
  }

  private endEntry(): void {
    if (this.mode === 'meta') {
      const text = Buffer.concat(this.meta).toString('utf8')
      this.meta = []
      if (this.metaKind === 'longname') this.nextPath = text.replace(/\0.*$/s, '')
      if (this.metaKind === 'pax') this.readPax(text)
    }
    this.mode = 'header'
  }

  /** A folder and those above it, in the index; one that is a file already is a damaged archive. */
  private addFolder(folder: string, name: string): void {
    if (this.index.folders.has(folder)) return
    if (this.index.files.has(folder)) throw this.damaged(`an entry that is both a file and a folder (${JSON.stringify(name)})`)
    const parent = path.posix.dirname(folder)
    this.addFolder(parent, name)
    this.index.folders.get(parent)!.set(path.posix.basename(folder), true)
    this.index.folders.set(folder, new Map())
  }

  /** PAX records, "<length> <key>=<value>\n": only the path and size matter here. */
  private readPax(text: string): void {
    for (const record of text.split('\n')) {
      const match = /^\d+ ([^=]+)=(.*)$/s.exec(record)
      if (match?.[1] === 'path') this.nextPath = match[2]
      if (match?.[1] === 'size') {
        if (!/^\d+$/.test(match[2])) throw this.damaged(`an unreadable size "${match[2].slice(0, 20)}"`)
        this.nextSize = Number(match[2])
      }
    }
  }

  /** An entry's clean path inside the archive ("top/manifest.json"), or refused. */
  private inside(name: string): string {
    const target = path.posix.normalize(name).replace(/\/+$/, '')
    if (name.includes('\0') || path.posix.isAbsolute(name) || target.split('/').includes('..') || target === '.' || target === '')
      throw this.refused(`has an entry that leaves the bundle (${JSON.stringify(name)})`)
    return target
  }

  private damaged(what: string) {
    return usageError(`${this.label} is not a readable bundle: it has ${what}`, 'the archive is damaged; collect it again')
  }

  private refused(what: string) {
    return usageError(`${this.label} is refused: it ${what}`, 'a bundle written by chainnode collect never does that; do not trust this file')
  }
}

function checksumOk(h: Buffer): boolean {
  const stored = readNumber(h.subarray(148, 156))
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]
  return stored === sum
}

/** A tar number: octal text, or base-256 when the high bit is set (GNU, for sizes over 8 GiB). */
function readNumber(field: Buffer): number | undefined {
  if (field[0] & 0x80) {
    let value = field[0] & 0x7f
    for (let i = 1; i < field.length; i++) value = value * 256 + field[i]
    return Number.isSafeInteger(value) ? value : undefined
  }
  const text = cString(field).trim()
  if (text === '') return 0
  return /^[0-7]+$/.test(text) ? parseInt(text, 8) : undefined
}

const cString = (field: Buffer) => {
  const end = field.indexOf(0)
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8')
}
