import { gunzipSync } from 'node:zlib'
import { ProfileFormatError } from './errors.js'
import { readProfileProto } from './proto-reader.js'
import type { Profile } from './types.js'

export { ProfileFormatError } from './errors.js'

export type ProfileKind = 'pprof-gzip' | 'pprof-raw' | 'go-trace' | 'html' | 'text' | 'unknown'

/** How many leading bytes sniffProfileKind looks at. */
export const SNIFF_BYTES = 4096

/**
 * Guesses what a profile download is from its first bytes: gzip (what Go's
 * /debug/pprof endpoints send), raw profile.proto, a Go execution trace
 * (/debug/pprof/trace), an HTML page (proxies, login and 404 pages) or
 * plain text (Go's own error replies, ?debug=1 profiles).
 */
export function sniffProfileKind(firstBytes: Uint8Array): ProfileKind {
  const b = firstBytes.subarray(0, SNIFF_BYTES)
  if (b.length === 0) return 'unknown'
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) return 'pprof-gzip'
  if (startsWithAscii(b, 'go 1.')) return 'go-trace'
  if (isText(b)) {
    const head = Buffer.from(b)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .slice(0, 1024)
      .toLowerCase()
    if (/^<(!doctype html|html|head|body|title|!--|\?xml)/.test(head) || (head.startsWith('<') && head.includes('<html'))) {
      return 'html'
    }
    return 'text'
  }
  return looksLikeProfileProto(b) ? 'pprof-raw' : 'unknown'
}

function startsWithAscii(b: Uint8Array, s: string): boolean {
  if (b.length < s.length) return false
  for (let i = 0; i < s.length; i++) if (b[i] !== s.charCodeAt(i)) return false
  return true
}

/** No control bytes other than tab, CR, LF and form feed; UTF-8 bytes allowed. */
function isText(b: Uint8Array): boolean {
  for (const c of b) {
    if (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c) return false
    if (c === 0x7f) return false
  }
  return true
}

/** Field number -> wire type(s) allowed at the top level of profile.proto. */
const TOP_LEVEL_WIRE: Record<number, readonly number[]> = {
  1: [2],
  2: [2],
  3: [2],
  4: [2],
  5: [2],
  6: [2],
  7: [0],
  8: [0],
  9: [0],
  10: [0],
  11: [2],
  12: [0],
  13: [0, 2],
  14: [0],
  15: [0],
}

/** Walks the top-level fields present in the prefix; all must fit profile.proto. */
function looksLikeProfileProto(b: Uint8Array): boolean {
  let pos = 0
  let fields = 0
  const varint = (): number | undefined => {
    let v = 0
    for (let shift = 0; shift < 64; shift += 7) {
      if (pos >= b.length) return undefined
      const c = b[pos++]!
      v += (c & 0x7f) * 2 ** shift
      if (c < 0x80) return v
    }
    return Number.NaN
  }
  while (pos < b.length) {
    const tag = varint()
    if (tag === undefined) break
    const field = Math.floor(tag / 8)
    const wire = tag % 8
    if (!TOP_LEVEL_WIRE[field]?.includes(wire)) return false
    const v = varint()
    if (v === undefined) break
    if (Number.isNaN(v)) return false
    if (wire === 2) pos += v
    fields++
  }
  return fields > 0 || b.length < 4
}

export interface DecodeOptions {
  /** File name or URL, used in messages such as the `go tool trace FILE` hint. */
  source?: string
  /** The content of gzipped `bytes`, when the caller has unpacked it already (as a stream, within its limit). */
  inflated?: Uint8Array
  /** Unpack no more than this many bytes: a gzip of zeros must not fill the memory. */
  maxBytes?: number
  /**
   * Decode no profile that would take more than about this many bytes in memory (a frame of 1 byte on disk is
   * 4 in memory, a location of 4 bytes is an object of hundreds): ProfileFormatError 'decoded-too-large'.
   */
  maxDecodedBytes?: number
}

/**
 * Decodes a pprof profile, gzipped (1f 8b) or raw protobuf. Throws
 * ProfileFormatError with a one-line message for anything else.
 */
export function decodeProfile(bytes: Uint8Array, options: DecodeOptions = {}): Profile {
  if (bytes.length === 0) throw new ProfileFormatError('empty', 'the profile is empty (0 bytes)')
  let data = bytes
  let compressed = false
  let kind = sniffProfileKind(bytes)
  if (kind === 'pprof-gzip') {
    data = options.inflated ?? gunzip(bytes, options.maxBytes)
    compressed = true
    if (data.length === 0) throw new ProfileFormatError('empty', 'the profile is empty (gzip data with 0 bytes inside)')
    kind = sniffProfileKind(data)
    if (kind === 'pprof-gzip') throw new ProfileFormatError('not-pprof', 'not a pprof profile: gzip data compressed twice')
  }
  rejectNonProfile(kind, data, compressed, options.source)
  if (kind === 'pprof-raw') return readProfileProto(data, options.maxDecodedBytes)
  // An unusual prefix (unknown fields, say) may still be a profile.
  try {
    return readProfileProto(data, options.maxDecodedBytes)
  } catch (err) {
    if (!(err instanceof ProfileFormatError) || err.code === 'invalid-profile' || err.code === 'decoded-too-large') throw err
    const hex = Array.from(data.subarray(0, 8), (c) => c.toString(16).padStart(2, '0')).join(' ')
    const gz = compressed ? ' (gzip-compressed)' : ''
    throw new ProfileFormatError('not-pprof', `not a pprof profile: the data${gz} is neither gzip nor profile protobuf (it starts with ${hex})`)
  }
}

function gunzip(bytes: Uint8Array, maxBytes: number | undefined): Uint8Array {
  try {
    return gunzipSync(bytes, maxBytes === undefined ? {} : { maxOutputLength: maxBytes })
  } catch (err) {
    const e = err as NodeJS.ErrnoException
    if (e.code === 'ERR_BUFFER_TOO_LARGE') throw new ProfileFormatError('too-large', `the profile unpacks to more than ${maxBytes} bytes`)
    if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(e.message)) {
      throw new ProfileFormatError('truncated-gzip', `truncated profile: the gzip data ends early (${bytes.length} bytes); the download was probably cut short`)
    }
    throw new ProfileFormatError('corrupt-gzip', `corrupt profile: the gzip data cannot be decompressed (${e.message})`)
  }
}

function rejectNonProfile(kind: ProfileKind, data: Uint8Array, compressed: boolean, source: string | undefined): void {
  const gz = compressed ? ' (gzip-compressed)' : ''
  switch (kind) {
    case 'go-trace':
      throw new ProfileFormatError('go-trace', `this is an execution trace, not a pprof profile; open it with go tool trace ${source ?? 'FILE'}`)
    case 'html': {
      const text = Buffer.from(data.subarray(0, 64 * 1024)).toString('utf8')
      const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim().replace(/\s+/g, ' ')
      const hint = title ? `titled "${clip(title)}"` : 'not a profile'
      throw new ProfileFormatError(
        'html',
        `this is an HTML page${gz}, ${hint}, not a pprof profile: the server or a proxy answered with a web page (a 404 or error page?)`,
      )
    }
    case 'text': {
      const first = Buffer.from(data.subarray(0, 4096)).toString('utf8').trim().split(/\r?\n/)[0] ?? ''
      const debug = /^(heap profile:|goroutine profile:|--- (contention|mutex|threadcreate)|threadcreate profile:)/.test(first)
      const hint = debug ? ' (a text profile from ?debug=1 or 2; fetch it without ?debug= to get protobuf)' : ''
      throw new ProfileFormatError('text', `this is plain text${gz}, not a pprof profile: "${clip(first)}"${hint}`)
    }
    default:
  }
}

function clip(s: string): string {
  return s.length > 100 ? `${s.slice(0, 97)}...` : s
}
