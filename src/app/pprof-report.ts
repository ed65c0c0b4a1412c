import { statSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createGunzip } from 'node:zlib'
import { UserError, usageError } from '../util/errors.js'
import { limitError, readLimits, type ReadLimits } from '../util/limits.js'
import { decodeProfile, ProfileFormatError } from '../pprof/decode.js'
import { diffProfiles } from '../pprof/diff.js'
import { topTable } from '../pprof/top.js'
import type { Profile } from '../pprof/types.js'
import type { TopReport } from '../pprof/results.js'

export interface TopRequest {
  file: string
  rows: number
  sampleIndex?: string
  nodeFraction?: number
  cum?: boolean
  /** A profile to subtract (pprof -diff_base): the report shows what changed from it to `file`. */
  base?: string
  focus?: string
  ignore?: string
  /** Told before each step (a debug line): decoding a large profile holds the event loop for seconds. */
  onStep?: (what: string) => void
}

/** `go tool pprof -top` for a saved profile (or `-diff_base OLD NEW` with `base`), without a Go toolchain; render/pprof-top.ts words it. */
export async function topReport(request: TopRequest): Promise<TopReport> {
  const profile = await loadProfile(request.file, request.onStep)
  const compared = request.base === undefined ? profile : diffProfiles(profile, await loadProfile(request.base, request.onStep))
  const sampleIndex = request.sampleIndex !== undefined && /^\d+$/.test(request.sampleIndex) ? Number(request.sampleIndex) : request.sampleIndex
  // pprof's -nodecount: keeps its unit choice and inline marks identical to go tool pprof -top -nodecount=N.
  const table = topTable(compared, {
    sampleIndex,
    nodeFraction: request.nodeFraction,
    cum: request.cum,
    nodeCount: request.rows,
    focus: request.focus,
    ignore: request.ignore,
  })
  return { file: request.file, base: request.base, filters: { focus: request.focus, ignore: request.ignore }, table }
}

/** A saved profile read within the size limit (gzipped as a stream) and decoded. */
export async function loadProfile(file: string, onStep?: (what: string) => void): Promise<Profile> {
  const limits = readLimits()
  const stats = statSync(file, { throwIfNoEntry: false })
  if (stats && !stats.isFile()) throw usageError(`${file} is not a regular file`, 'pass the path of a saved profile')
  if (stats && stats.size > limits.profileBytes) throw limitError('profileBytes', limits, `${file} (${stats.size} bytes)`)
  let bytes: Buffer
  try {
    bytes = await readFile(file)
  } catch {
    throw usageError(`cannot read ${file}`, 'pass the path of a saved profile')
  }
  const inflated = bytes[0] === 0x1f && bytes[1] === 0x8b ? await inflateWithin(bytes, limits, file) : undefined
  onStep?.(`decoding ${file} (${(inflated ?? bytes).length} bytes)`)
  try {
    return decodeProfile(bytes, { source: file, inflated, maxBytes: limits.profileBytes, maxDecodedBytes: limits.profileDecodedBytes })
  } catch (error) {
    if (error instanceof ProfileFormatError && error.code === 'decoded-too-large') throw limitError('profileDecodedBytes', limits, `${file} (${error.message})`)
    throw error
  }
}

/**
 * Gunzip as a stream, stopping at the limit: a small gzip of zeros must neither fill the memory nor
 * hold the event loop (Ctrl-C works throughout). A damaged gzip is left to decodeProfile to explain.
 */
async function inflateWithin(bytes: Buffer, limits: ReadLimits, file: string): Promise<Buffer | undefined> {
  // The size the gzip trailer announces (mod 4 GiB, and a stranger's word): zlib writes into one buffer of that size
  // (at least 1 MiB, not zlib's 16 KiB: a turn of the event loop per chunk), so an honest profile comes out whole as
  // one chunk, neither copied nor held twice (fresh memory costs its first touch). A wrong size only means chunks, put
  // together in a buffer that grows.
  const announced = bytes.length >= 4 ? bytes.readUInt32LE(bytes.length - 4) : 0
  const gunzip = createGunzip({ chunkSize: Math.max(1 << 20, Math.min(announced, limits.profileBytes)) })
  gunzip.end(bytes)
  let whole: Buffer | undefined
  let out: Buffer | undefined
  let total = 0
  try {
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      if (total + chunk.length > limits.profileBytes) throw limitError('profileBytes', limits, `${file} (it unpacks to more)`)
      if (total === 0 && whole === undefined) {
        whole = chunk
        total = chunk.length
        continue
      }
      if (out === undefined) {
        out = Buffer.allocUnsafe(Math.min(limits.profileBytes, Math.max(2 * total, total + chunk.length)))
        whole!.copy(out, 0, 0, total)
      } else if (total + chunk.length > out.length) {
        const grown = Buffer.allocUnsafe(Math.min(limits.profileBytes, Math.max(out.length * 2, total + chunk.length)))
        out.copy(grown, 0, 0, total)
        out = grown
      }
      chunk.copy(out, total)
      total += chunk.length
    }
  } catch (error) {
    if (error instanceof UserError) throw error
    return undefined
  } finally {
    gunzip.destroy()
  }
  return out === undefined ? (whole ?? Buffer.alloc(0)) : out.subarray(0, total)
}
