/**
 * What a node's CometBFT JSON-RPC answered, read into chain facts: pure, so every bad answer a stranger's node can
 * give (HTML from a proxy, not HTTP, not JSON, an RPC error, no result, a cut /net_info) is tested without a
 * socket. src/cluster/chain-probe.ts fetches the answers and hands them here.
 */
import type { ChainFacts, ChainSample } from './types.js'
import { parseJsonPruned } from '../util/json-depth.js'

/** One HTTP answer from a Pod's port, as the probe read it (at most its byte limit). */
export interface RpcAnswer {
  status: number
  contentType: string
  body: Buffer
  /** The answer was longer than the limit and was cut there. */
  truncated: boolean
}

/** /net_info of a busy seed lists thousands of peers: read this much, count the rest. */
export const MAX_ANSWER_BYTES = 2 * 1024 * 1024
const PEER_LIST_CAP = 50

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`

/**
 * The `result` of one JSON-RPC answer (an object), or undefined with one line in `problems` saying why there is
 * none. `what` names the path and port in that line; `limit` is the byte limit the answer was read with.
 */
export function rpcResult(answer: RpcAnswer | Error, what: string, problems: string[], { netInfo = false, limit = MAX_ANSWER_BYTES } = {}): Json | undefined {
  if (answer instanceof Error) {
    problems.push(`${what}: ${answer.message}`)
    return undefined
  }
  const text = answer.body.toString('utf8')
  if (answer.truncated && netInfo) return truncatedNetInfo(text, what, problems, limit)
  const read = readAnswer(answer, text, limit)
  if ('problem' in read) {
    problems.push(`${what}: ${read.problem}`)
    return undefined
  }
  const body = read.body
  if (body !== null && typeof body === 'object' && body.error) {
    const error = typeof body.error === 'object' ? body.error : { message: String(body.error) }
    problems.push(`${what}: RPC error ${error.code ?? ''}: ${[error.message, error.data].filter(Boolean).map(String).join(': ')}`.slice(0, 300))
    return undefined
  }
  if (body === null || typeof body !== 'object' || !body.result || typeof body.result !== 'object') {
    problems.push(`${what}: a JSON answer without a result`)
    return undefined
  }
  return body.result
}

/** The answer's JSON body (parsed once), or why there is none: HTML from a proxy, not HTTP, cut, not JSON. */
function readAnswer(answer: RpcAnswer, text: string, limit: number): { body: Json } | { problem: string } {
  const start = text.trimStart().slice(0, 80).replace(/\s+/g, ' ')
  if (/html/i.test(answer.contentType) || /^<(!doctype|html)/i.test(start)) return { problem: `answered HTML, not JSON-RPC (HTTP ${answer.status}): ${start}` }
  if (answer.status === 0) return { problem: `answered something that is not HTTP: ${start || '(empty)'}` }
  if (answer.truncated) return { problem: `answer longer than ${megabytes(limit)}` }
  try {
    return { body: parseJsonPruned<Json>(text) }
  } catch {
    return { problem: `answered HTTP ${answer.status} with something that is not JSON: ${start || '(empty)'}` }
  }
}

/** A /net_info too long to read whole: n_peers comes first, the directions are counted in what was read. */
function truncatedNetInfo(text: string, what: string, problems: string[], limit: number): Json | undefined {
  const total = /"n_peers"\s*:\s*"?(\d+)/.exec(text)?.[1]
  if (total === undefined) {
    problems.push(`${what}: answer longer than ${megabytes(limit)} without n_peers`)
    return undefined
  }
  problems.push(`${what}: answer longer than ${megabytes(limit)}; n_peers ${total} read, directions counted in the first part only`)
  const outbound = (text.match(/"is_outbound"\s*:\s*true/g) ?? []).length
  const inbound = (text.match(/"is_outbound"\s*:\s*false/g) ?? []).length
  return { n_peers: total, peers: [], counted: { inbound, outbound } }
}

/** The height, block time and catching-up flag of a /status result. */
export function sampleOf(result: Json, at: string): ChainSample {
  const sync = result.sync_info && typeof result.sync_info === 'object' ? result.sync_info : {}
  const height = Number(sync.latest_block_height ?? 0)
  const blockTime = height > 0 && typeof sync.latest_block_time === 'string' ? sync.latest_block_time : undefined
  return { at, height: Number.isFinite(height) ? height : 0, blockTime, catchingUp: sync.catching_up === true }
}

/** Peers of a /net_info result: the count, the directions and the first few peers. */
export function peersOf(result: Json, at: string): NonNullable<ChainFacts['peers']> {
  const list: Json[] = Array.isArray(result.peers) ? result.peers.filter((p: unknown) => p !== null && typeof p === 'object') : []
  const outbound = result.counted?.outbound ?? list.filter((p) => p.is_outbound === true).length
  const inbound = result.counted?.inbound ?? list.filter((p) => p.is_outbound === false).length
  const total = Number(result.n_peers ?? list.length)
  return {
    at,
    total: Number.isFinite(total) ? total : list.length,
    inbound,
    outbound,
    list: list.slice(0, PEER_LIST_CAP).map((p) => ({
      id: String(p.node_info?.id ?? ''),
      address: String(p.remote_ip ?? p.node_info?.listen_addr ?? ''),
      outbound: p.is_outbound === true,
    })),
  }
}
