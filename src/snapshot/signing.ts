import { createHash } from 'node:crypto'
import type { SigningReading } from './types.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { valueAt, listAt, textAt } from '../util/json-path.js'

/** CometBFT's BlockIDFlag: 1 absent, 2 commit, 3 nil. A nil vote is a signature too (x/slashing counts it as signed). */
const BLOCK_ID_FLAG_ABSENT = 1
/** Missed heights kept in a reading: enough to show a run of misses, bounded whatever the window. */
export const MISSED_HEIGHTS_CAP = 200

/**
 * The CometBFT consensus address of an ed25519 key: the first 20 bytes of its SHA-256, upper-case hex.
 * Reads the operator's `.status.pubKey` (`{"@type":"/cosmos.crypto.ed25519.PubKey","key":"<base64>"}`),
 * CometBFT's own JSON (`{"type":"tendermint/PubKeyEd25519","value":"<base64>"}`) or the bare base64 key.
 * Undefined for any other key type or anything that is not a 32-byte key.
 */
export function consensusAddressOf(pubKey: unknown): string | undefined {
  if (typeof pubKey !== 'string' || pubKey.length > 1024) return undefined
  let base64 = pubKey.trim()
  if (base64.startsWith('{')) {
    let parsed: Record<string, unknown>
    try {
      parsed = parseJsonPruned<Record<string, unknown>>(base64)
    } catch {
      return undefined
    }
    const type = String(parsed['@type'] ?? parsed.type ?? '')
    if (type && !/ed25519/i.test(type)) return undefined
    base64 = String(parsed.key ?? parsed.value ?? '')
  }
  if (!/^[A-Za-z0-9+/]{43}=$/.test(base64)) return undefined
  const key = Buffer.from(base64, 'base64')
  if (key.length !== 32) return undefined
  return createHash('sha256').update(key).digest().subarray(0, 20).toString('hex').toUpperCase()
}

/** One canonical commit as far as signing goes: its height, block time and who signed it. */
export interface CommitSigners {
  height: number
  time?: string
  /** Upper-case consensus addresses with a commit or nil vote. */
  signers: Set<string>
}

/** The `result` of CometBFT v0.38 `/commit?height=H`; undefined when it is not one. */
export function commitSigners(result: unknown): CommitSigners | undefined {
  const header = valueAt(result, 'signed_header', 'header')
  const commit = valueAt(result, 'signed_header', 'commit')
  const height = Number(valueAt(commit, 'height') ?? valueAt(header, 'height'))
  const signatures = valueAt(commit, 'signatures')
  if (!Number.isSafeInteger(height) || height <= 0 || !Array.isArray(signatures)) return undefined
  const signers = new Set<string>()
  for (const signature of signatures as unknown[]) {
    const flag = Number(valueAt(signature, 'block_id_flag'))
    const address = textAt(signature, 'validator_address')
    if (flag !== BLOCK_ID_FLAG_ABSENT && address !== undefined && address.length <= 64) signers.add(address.toUpperCase())
  }
  const headerTime = textAt(header, 'time')
  const time = headerTime !== undefined && !Number.isNaN(Date.parse(headerTime)) ? headerTime : undefined
  return { height, time, signers }
}

/** The validator set at a height, from `/validators` pages: address (upper-case hex) to voting power. */
export function validatorPowers(results: unknown[]): Map<string, number> {
  const powers = new Map<string, number>()
  for (const result of results)
    for (const validator of listAt(result, 'validators')) {
      const address = textAt(validator, 'address')
      if (address !== undefined) powers.set(address.toUpperCase(), Number(valueAt(validator, 'voting_power') ?? 0))
    }
  return powers
}

/** Count what `address` signed in the commits read; heights the commits do not cover are not counted. */
export function countSigning(
  commits: readonly CommitSigners[],
  address: string,
): Pick<SigningReading, 'counted' | 'signed' | 'missed' | 'missedHeights' | 'firstMissed' | 'lastSigned' | 'fromHeight' | 'toHeight'> {
  const sorted = [...commits].sort((a, b) => a.height - b.height)
  const wanted = address.toUpperCase()
  let signed = 0
  const missed: CommitSigners[] = []
  let lastSigned: CommitSigners | undefined
  for (const commit of sorted) {
    if (commit.signers.has(wanted)) {
      signed++
      lastSigned = commit
    } else missed.push(commit)
  }
  return {
    counted: sorted.length,
    signed,
    missed: missed.length,
    missedHeights: missed.slice(-MISSED_HEIGHTS_CAP).map((c) => c.height),
    firstMissed: missed[0] && { height: missed[0].height, time: missed[0].time },
    lastSigned: lastSigned && { height: lastSigned.height, time: lastSigned.time },
    fromHeight: sorted[0]?.height,
    toHeight: sorted.at(-1)?.height,
  }
}

/** Why an RPC read gave nothing, as one word a table cell or a one-line summary can hold. */
export type RpcFailure = 'refused' | 'reset' | 'timeout' | 'not JSON' | 'RPC error' | 'error'

export function rpcFailureOf(problem: string): RpcFailure {
  if (/connection refused|ECONNREFUSED/i.test(problem)) return 'refused'
  if (/no answer within|timed? ?out|ETIMEDOUT|deadline exceeded/i.test(problem)) return 'timeout'
  if (/connection reset|ECONNRESET|socket hang up|closed before|broken pipe|EPIPE/i.test(problem)) return 'reset'
  if (/not JSON|HTML|not HTTP|without a result/i.test(problem)) return 'not JSON'
  if (/RPC error/.test(problem)) return 'RPC error'
  return 'error'
}

/** A probe problem ("/status on 26657: <a long port-forward error>") folded to one line: what was read, the reason, a short tail. */
export function foldProblem(problem: string, tailChars = 60): string {
  const oneLine = problem.replace(/\s+/g, ' ').trim()
  const colon = oneLine.indexOf(': ')
  const what = colon > 0 && colon < 40 ? oneLine.slice(0, colon) : ''
  const rest = what ? oneLine.slice(colon + 2) : oneLine
  const reason = rpcFailureOf(rest)
  // The end of a Go error chain says what happened ("dial tcp 127.0.0.1:1: connect: connection refused").
  const last = rest.split(': ').at(-1) ?? rest
  const tail = last.length > tailChars ? `${last.slice(0, tailChars - 1)}…` : last
  const said = reason === 'error' || tail.toLowerCase().includes(reason.toLowerCase()) ? tail : `${reason} (${tail})`
  return what ? `${what}: ${said}` : said
}

/** The part of a reading a report carries per node (JSON, status -o wide): the counts, not the heights. */
export function signingSummary(reading: SigningReading) {
  const { address, source, window, counted, signed, missed, fromHeight, toHeight, votingPower, inActiveSet } = reading
  return { address, source, window, counted, signed, missed, fromHeight, toHeight, votingPower, inActiveSet }
}
