/**
 * What a node's CometBFT JSON-RPC answered, read into chain facts: pure, so every bad answer a stranger's node can
 * give (HTML from a proxy, not HTTP, not JSON, an RPC error, no result, a cut /net_info) is tested without a
 * socket. src/cluster/chain-probe.ts fetches the answers and hands them here.
 */
import type { ChainFacts, ChainSample } from './types.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { valueAt, isJsonObject, listAt, textAt } from '../util/json-path.js'

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

/** The `result` of a JSON-RPC answer: an object whose fields are read with util/json-path.ts. */
export type RpcResult = Record<string, unknown>

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`

/**
 * The `result` of one JSON-RPC answer (an object), or undefined with one line in `problems` saying why there is
 * none. `what` names the path and port in that line; `limit` is the byte limit the answer was read with.
 */
export function rpcResult(
  answer: RpcAnswer | Error,
  what: string,
  problems: string[],
  { netInfo = false, limit = MAX_ANSWER_BYTES } = {},
): RpcResult | undefined {
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
  const error = valueAt(read.body, 'error')
  if (error) {
    const said = isJsonObject(error) ? [valueAt(error, 'message'), valueAt(error, 'data')] : [error]
    problems.push(`${what}: RPC error ${String(valueAt(error, 'code') ?? '')}: ${said.filter(Boolean).map(String).join(': ')}`.slice(0, 300))
    return undefined
  }
  const result = valueAt(read.body, 'result')
  if (!isJsonObject(result)) {
    problems.push(`${what}: a JSON answer without a result`)
    return undefined
  }
  return result
}

/** The answer's JSON body (parsed once), or why there is none: HTML from a proxy, not HTTP, cut, not JSON. */
function readAnswer(answer: RpcAnswer, text: string, limit: number): { body: unknown } | { problem: string } {
  const start = text.trimStart().slice(0, 80).replace(/\s+/g, ' ')
  if (/html/i.test(answer.contentType) || /^<(!doctype|html)/i.test(start)) return { problem: `answered HTML, not JSON-RPC (HTTP ${answer.status}): ${start}` }
  if (answer.status === 0) return { problem: `answered something that is not HTTP: ${start || '(empty)'}` }
  if (answer.truncated) return { problem: `answer longer than ${megabytes(limit)}` }
  try {
    return { body: parseJsonPruned<unknown>(text) }
  } catch {
    return { problem: `answered HTTP ${answer.status} with something that is not JSON: ${start || '(empty)'}` }
  }
}

/** A /net_info too long to read whole: n_peers comes first, the directions are counted in what was read. */
function truncatedNetInfo(text: string, what: string, problems: string[], limit: number): RpcResult | undefined {
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
export function sampleOf(result: RpcResult, readAt: string): ChainSample {
  const height = Number(valueAt(result, 'sync_info', 'latest_block_height') ?? 0)
  const blockTime = height > 0 ? textAt(result, 'sync_info', 'latest_block_time') : undefined
  return { at: readAt, height: Number.isFinite(height) ? height : 0, blockTime, catchingUp: valueAt(result, 'sync_info', 'catching_up') === true }
}

/** Peers of a /net_info result: the count, the directions and the first few peers. */
export function peersOf(result: RpcResult, readAt: string): NonNullable<ChainFacts['peers']> {
  const list = listAt(result, 'peers').filter(isJsonObject)
  const counted = (direction: 'inbound' | 'outbound', outbound: boolean) => {
    const fromCut = valueAt(result, 'counted', direction)
    return typeof fromCut === 'number' ? fromCut : list.filter((p) => p.is_outbound === outbound).length
  }
  const total = Number(valueAt(result, 'n_peers') ?? list.length)
  return {
    at: readAt,
    total: Number.isFinite(total) ? total : list.length,
    inbound: counted('inbound', false),
    outbound: counted('outbound', true),
    list: list.slice(0, PEER_LIST_CAP).map((p) => ({
      id: String(valueAt(p, 'node_info', 'id') ?? ''),
      address: String(valueAt(p, 'remote_ip') ?? valueAt(p, 'node_info', 'listen_addr') ?? ''),
      outbound: p.is_outbound === true,
    })),
  }
}
