import { readFile } from 'node:fs/promises'
import { usageError } from '../errors.js'
import { decodeProfile } from '../pprof/decode.js'
import { renderTop } from '../pprof/format.js'
import { topTable } from '../pprof/top.js'

export interface TopRequest {
  file: string
  rows: number
  sampleIndex?: string
  nodeFraction?: number
  cum?: boolean
}

/** `go tool pprof -top` for a saved profile, without a Go toolchain. */
export async function topReport(request: TopRequest): Promise<string> {
  let bytes: Buffer
  try {
    bytes = await readFile(request.file)
  } catch {
    throw usageError(`cannot read ${request.file}`, 'pass the path of a saved profile')
  }
  const profile = decodeProfile(bytes, { source: request.file })
  const sampleIndex = request.sampleIndex !== undefined && /^\d+$/.test(request.sampleIndex) ? Number(request.sampleIndex) : request.sampleIndex
  // pprof's -nodecount: keeps its unit choice and inline marks identical to go tool pprof -top -nodecount=N.
  const result = topTable(profile, { sampleIndex, nodeFraction: request.nodeFraction, cum: request.cum, nodeCount: request.rows })
  return renderTop(result)
}

export const SENSITIVE_NOTICE =
  'note: profiles describe only the node-utils process (not the chain process, not total Pod memory) and can contain sensitive process data; keep them access-controlled.'
