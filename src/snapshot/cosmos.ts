/**
 * What a Cosmos SDK chain answers over CometBFT's `/abci_query` (26657): the request bytes of each query and
 * its answer decoded with cosmjs-types (the SDK's generated protobuf decoders), the address forms converted with
 * @scure/base's bech32, and x/slashing's arithmetic. Pure: cluster/cosmos-probe.ts fetches, this reads, so every
 * answer a stranger's chain can give is tested without a socket (test/fixtures/cosmos holds real simd answers).
 */
import { createHash } from 'node:crypto'
import { bech32 } from '@scure/base'
import { Bech32PrefixRequest, Bech32PrefixResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query'
import { QueryProposalsRequest, QueryProposalsResponse, QueryVoteRequest, QueryVoteResponse } from 'cosmjs-types/cosmos/gov/v1/query'
import { ProposalStatus, VoteOption } from 'cosmjs-types/cosmos/gov/v1/gov'
import { QueryParamsRequest, QueryParamsResponse, QuerySigningInfoRequest, QuerySigningInfoResponse } from 'cosmjs-types/cosmos/slashing/v1beta1/query'
import { QueryValidatorRequest, QueryValidatorResponse, QueryValidatorsRequest, QueryValidatorsResponse } from 'cosmjs-types/cosmos/staking/v1beta1/query'
import { BondStatus } from 'cosmjs-types/cosmos/staking/v1beta1/staking'
import { PubKey as Ed25519PubKey } from 'cosmjs-types/cosmos/crypto/ed25519/keys'
import { QueryCurrentPlanRequest, QueryCurrentPlanResponse } from 'cosmjs-types/cosmos/upgrade/v1beta1/query'
import type { RpcResult } from './rpc-answer.js'
import type { CosmosProposal, CosmosValidatorReading, SlashingParams, UpgradePlan } from './types.js'
import { valueAt, textAt, listAt, isJsonObject } from '../util/json-path.js'

/** The gRPC method paths the app routes `abci_query` to. */
export const QUERY = {
  prefix: '/cosmos.auth.v1beta1.Query/Bech32Prefix',
  slashingParams: '/cosmos.slashing.v1beta1.Query/Params',
  signingInfo: '/cosmos.slashing.v1beta1.Query/SigningInfo',
  validator: '/cosmos.staking.v1beta1.Query/Validator',
  validators: '/cosmos.staking.v1beta1.Query/Validators',
  currentPlan: '/cosmos.upgrade.v1beta1.Query/CurrentPlan',
  proposals: '/cosmos.gov.v1.Query/Proposals',
  vote: '/cosmos.gov.v1.Query/Vote',
} as const

/** Proposals in voting period asked for at once; a chain with more open proposals than this is rare. */
export const PROPOSALS_PAGE = 20
/** Validators per page when the valoper has to be found by consensus key. */
export const VALIDATORS_PAGE = 200

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

/** The RPC path of one query: `/abci_query?path="<method>"&data=0x<request>` with the quotes escaped for a request line. */
export function abciPath(method: string, request: Uint8Array = new Uint8Array()): string {
  return `/abci_query?path=%22${method}%22${request.length ? `&data=0x${hex(request)}` : ''}`
}

export const requests = {
  prefix: () => abciPath(QUERY.prefix, Bech32PrefixRequest.encode({}).finish()),
  slashingParams: () => abciPath(QUERY.slashingParams, QueryParamsRequest.encode({}).finish()),
  signingInfo: (valcons: string) => abciPath(QUERY.signingInfo, QuerySigningInfoRequest.encode({ consAddress: valcons }).finish()),
  validator: (valoper: string) => abciPath(QUERY.validator, QueryValidatorRequest.encode({ validatorAddr: valoper }).finish()),
  validators: (nextKey?: Uint8Array) =>
    abciPath(
      QUERY.validators,
      QueryValidatorsRequest.encode({
        status: '',
        pagination: { key: nextKey ?? new Uint8Array(), offset: 0n, limit: BigInt(VALIDATORS_PAGE), countTotal: false, reverse: false },
      }).finish(),
    ),
  currentPlan: () => abciPath(QUERY.currentPlan, QueryCurrentPlanRequest.encode({}).finish()),
  proposals: () =>
    abciPath(
      QUERY.proposals,
      QueryProposalsRequest.encode({
        proposalStatus: ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD,
        voter: '',
        depositor: '',
        pagination: { key: new Uint8Array(), offset: 0n, limit: BigInt(PROPOSALS_PAGE), countTotal: true, reverse: false },
      }).finish(),
    ),
  vote: (proposalId: string, voter: string) => abciPath(QUERY.vote, QueryVoteRequest.encode({ proposalId: BigInt(proposalId), voter }).finish()),
}

/** One `abci_query` answer: the value bytes, or the app's refusal (code, codespace, log), or why it is no answer at all. */
export type AbciAnswer = { value: Uint8Array; height: number } | { code: number; codespace: string; log: string } | { problem: string }

export function abciAnswer(result: RpcResult | undefined): AbciAnswer {
  if (!result) return { problem: 'no answer' }
  const response = valueAt(result, 'response')
  if (!isJsonObject(response)) return { problem: 'an abci_query answer without a response' }
  const code = Number(valueAt(response, 'code') ?? 0)
  const log = String(textAt(response, 'log') ?? '').slice(0, 300)
  if (code !== 0) return { code, codespace: String(textAt(response, 'codespace') ?? ''), log }
  const value = textAt(response, 'value') ?? ''
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(value)) return { problem: 'a value that is not base64' }
  return { value: new Uint8Array(Buffer.from(value, 'base64')), height: Number(valueAt(response, 'height') ?? 0) || 0 }
}

/** Why an answer carries no value, in a line: the app's refusal or the transport's. */
export function refusal(answer: AbciAnswer): string | undefined {
  if ('value' in answer) return undefined
  if ('problem' in answer) return answer.problem
  return `the app answered code ${answer.code}${answer.codespace ? ` (${answer.codespace})` : ''}${answer.log ? `: ${answer.log}` : ''}`
}

/** A refusal that means "this chain has no such query": the SDK's unknown-request error, or a path it does not route. */
export function isUnknownQuery(answer: AbciAnswer): boolean {
  return 'code' in answer && ((answer.codespace === 'sdk' && answer.code === 6) || /unknown query path|no route|unknown request/i.test(answer.log))
}

/** Decode with a cosmjs-types decoder; a value that is not that message is a problem line, never a throw. */
function decode<T>(decoder: { decode(input: Uint8Array): T }, answer: AbciAnswer): { ok: T } | { problem: string } {
  const refused = refusal(answer)
  if (refused !== undefined) return { problem: refused }
  try {
    return { ok: decoder.decode((answer as { value: Uint8Array }).value) }
  } catch (error) {
    return { problem: `a value that is not the expected message: ${(error as Error).message.slice(0, 120)}` }
  }
}

const safeNumber = (n: bigint) => (n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= 0n ? Number(n) : undefined)

/**
 * The SDK's LegacyDec as gogoproto writes it in a `bytes` field: the decimal's integer form scaled by 10^18, as
 * ASCII digits ("500000000000000000" is 0.5).
 */
export function legacyDec(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes).toString('latin1')
  if (!/^-?\d{1,40}$/.test(text)) return undefined
  return Number(text) / 1e18
}

const rfc3339 = (t: { seconds: bigint; nanos: number } | undefined): string | undefined => {
  if (!t) return undefined
  const ms = Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6)
  return Number.isFinite(ms) && t.seconds > 0n ? new Date(ms).toISOString() : undefined
}

/** The account prefix the chain's addresses use ("cosmos"); an empty prefix is no Cosmos SDK answer. */
export function prefixOf(answer: AbciAnswer): { prefix: string } | { problem: string } {
  const decoded = decode(Bech32PrefixResponse, answer)
  if ('problem' in decoded) return decoded
  const prefix = decoded.ok.bech32Prefix
  return /^[a-z][a-z0-9]{0,30}$/.test(prefix)
    ? { prefix }
    : { problem: `no bech32 prefix in the answer${prefix ? ` (${JSON.stringify(prefix.slice(0, 40))})` : ''}` }
}

/** x/slashing's parameters; a window of 0 is no x/slashing answer (the SDK refuses such params). */
export function slashingParamsOf(answer: AbciAnswer): { params: SlashingParams } | { problem: string } {
  const decoded = decode(QueryParamsResponse, answer)
  if ('problem' in decoded) return decoded
  const p = decoded.ok.params
  const window = safeNumber(p.signedBlocksWindow)
  const minSigned = legacyDec(p.minSignedPerWindow)
  if (!window || minSigned === undefined || minSigned < 0 || minSigned > 1)
    return {
      problem: `parameters that are not x/slashing's (signed_blocks_window ${p.signedBlocksWindow}, min_signed_per_window ${JSON.stringify(Buffer.from(p.minSignedPerWindow).toString('latin1').slice(0, 40))})`,
    }
  const jail = p.downtimeJailDuration
  return {
    params: {
      signedBlocksWindow: window,
      minSignedPerWindow: minSigned,
      downtimeJailSeconds: jail ? Number(jail.seconds) + jail.nanos / 1e9 : 0,
      slashFractionDowntime: legacyDec(p.slashFractionDowntime),
      slashFractionDoubleSign: legacyDec(p.slashFractionDoubleSign),
    },
  }
}

export function signingInfoOf(answer: AbciAnswer): { info: NonNullable<CosmosValidatorReading['signingInfo']> } | { problem: string } {
  const decoded = decode(QuerySigningInfoResponse, answer)
  if ('problem' in decoded) return decoded
  const v = decoded.ok.valSigningInfo
  const numbers = [v.startHeight, v.indexOffset, v.missedBlocksCounter].map(safeNumber)
  if (numbers.some((n) => n === undefined)) return { problem: 'a signing info with heights out of range' }
  const [startHeight, indexOffset, missedBlocksCounter] = numbers as number[]
  return {
    info: { address: v.address.slice(0, 120), startHeight, indexOffset, missedBlocksCounter, jailedUntil: rfc3339(v.jailedUntil), tombstoned: v.tombstoned },
  }
}

const BOND: Record<number, NonNullable<CosmosValidatorReading['staking']>['status']> = {
  [BondStatus.BOND_STATUS_BONDED]: 'bonded',
  [BondStatus.BOND_STATUS_UNBONDING]: 'unbonding',
  [BondStatus.BOND_STATUS_UNBONDED]: 'unbonded',
}

export function stakingValidatorOf(answer: AbciAnswer): { staking: NonNullable<CosmosValidatorReading['staking']> } | { problem: string } {
  const decoded = decode(QueryValidatorResponse, answer)
  if ('problem' in decoded) return decoded
  const v = decoded.ok.validator
  return {
    staking: {
      operatorAddress: v.operatorAddress.slice(0, 120),
      jailed: v.jailed,
      status: BOND[v.status] ?? 'unspecified',
      tokens: /^\d{1,80}$/.test(v.tokens) ? v.tokens : '0',
      moniker: v.description?.moniker.slice(0, 70) ?? '',
    },
  }
}

/** The consensus address (upper-case hex) of a staking validator's consensus key, when it is an ed25519 key. */
function consensusAddressOfAny(any: { typeUrl: string; value: Uint8Array } | undefined): string | undefined {
  if (!any || any.typeUrl !== '/cosmos.crypto.ed25519.PubKey') return undefined
  try {
    const key = Ed25519PubKey.decode(any.value).key
    return key.length === 32 ? createHash('sha256').update(key).digest().subarray(0, 20).toString('hex').toUpperCase() : undefined
  } catch {
    return undefined
  }
}

/** One page of the chain's validators: each one's valoper by consensus address, and the key of the next page. */
export function validatorsPageOf(answer: AbciAnswer): { byConsensus: Map<string, string>; next?: Uint8Array } | { problem: string } {
  const decoded = decode(QueryValidatorsResponse, answer)
  if ('problem' in decoded) return decoded
  const byConsensus = new Map<string, string>()
  for (const v of decoded.ok.validators) {
    const address = consensusAddressOfAny(v.consensusPubkey)
    if (address) byConsensus.set(address, v.operatorAddress)
  }
  const next = decoded.ok.pagination?.nextKey
  return { byConsensus, next: next && next.length ? next : undefined }
}

/** The pending upgrade plan, or null when the chain has none. */
export function upgradePlanOf(answer: AbciAnswer): { plan: UpgradePlan | null } | { problem: string } {
  const decoded = decode(QueryCurrentPlanResponse, answer)
  if ('problem' in decoded) return decoded
  const p = decoded.ok.plan
  if (!p || (!p.name && p.height === 0n)) return { plan: null }
  const height = safeNumber(p.height)
  if (height === undefined) return { problem: `an upgrade plan with height ${p.height}` }
  return { plan: { name: p.name.slice(0, 140), height, info: p.info.slice(0, 2000) } }
}

export function proposalsOf(answer: AbciAnswer): { proposals: CosmosProposal[]; total: number } | { problem: string } {
  const decoded = decode(QueryProposalsResponse, answer)
  if ('problem' in decoded) return decoded
  const proposals = decoded.ok.proposals
    .filter((p) => p.status === ProposalStatus.PROPOSAL_STATUS_VOTING_PERIOD)
    .map((p) => ({
      id: p.id.toString(),
      title: (p.title || p.messages[0]?.typeUrl || '').slice(0, 140),
      votingStartTime: rfc3339(p.votingStartTime),
      votingEndTime: rfc3339(p.votingEndTime),
      expedited: p.expedited,
    }))
  const total = safeNumber(decoded.ok.pagination?.total ?? 0n) ?? proposals.length
  return { proposals, total: Math.max(total, proposals.length) }
}

const OPTION: Record<number, string> = {
  [VoteOption.VOTE_OPTION_YES]: 'yes',
  [VoteOption.VOTE_OPTION_ABSTAIN]: 'abstain',
  [VoteOption.VOTE_OPTION_NO]: 'no',
  [VoteOption.VOTE_OPTION_NO_WITH_VETO]: 'no_with_veto',
}

/**
 * The options a voter cast on a proposal, or null when it has not voted. The SDK answers a missing vote with an
 * error whose log says "not found" (gov's ErrNotFound-style refusal), any other refusal is a problem.
 */
export function voteOf(answer: AbciAnswer): { options: string[] | null } | { problem: string } {
  if ('code' in answer && /not found|doesn't exist|does not exist/i.test(answer.log)) return { options: null }
  const decoded = decode(QueryVoteResponse, answer)
  if ('problem' in decoded) return decoded
  const vote = decoded.ok.vote
  if (!vote || vote.options.length === 0) return { options: null }
  return { options: vote.options.map((o) => OPTION[o.option] ?? 'unspecified') }
}

/** Upper-case hex of the first 20 bytes of /blockchain's block metas' mean interval, in ms (undefined with fewer than 2 blocks). */
export function meanBlockMs(result: RpcResult | undefined): { ms: number; blocks: number } | undefined {
  const metas = listAt(result, 'block_metas')
  const times = metas
    .map((m) => ({ height: Number(valueAt(m, 'header', 'height')), at: Date.parse(String(textAt(m, 'header', 'time') ?? '')) }))
    .filter((m) => Number.isSafeInteger(m.height) && Number.isFinite(m.at))
    .sort((a, b) => a.height - b.height)
  if (times.length < 2) return undefined
  const first = times[0]
  const last = times.at(-1)!
  const ms = (last.at - first.at) / (last.height - first.height)
  return ms > 0 && Number.isFinite(ms) ? { ms: Math.round(ms), blocks: last.height - first.height } : undefined
}

/** Address forms, converted: the valcons of a consensus address, the account of a valoper (same bytes, another prefix). */
export function bech32Of(prefix: string, bytes: Uint8Array): string {
  return bech32.encode(prefix, bech32.toWords(bytes), 200)
}

export function bytesOfBech32(address: string): { prefix: string; bytes: Uint8Array } | undefined {
  try {
    const { prefix, words } = bech32.decode(address as `${string}1${string}`, 200)
    return { prefix, bytes: bech32.fromWords(words) }
  } catch {
    return undefined
  }
}

export const valconsOf = (prefix: string, consensusHex: string) => bech32Of(`${prefix}valcons`, new Uint8Array(Buffer.from(consensusHex, 'hex')))

/** The account prefix a valoper address was written with ("cosmosvaloper1..." gives "cosmos"), when it is one. */
export function accountOfValoper(valoper: string): { prefix: string; account: string } | undefined {
  const decoded = bytesOfBech32(valoper)
  if (!decoded || !decoded.prefix.endsWith('valoper')) return undefined
  const prefix = decoded.prefix.slice(0, -'valoper'.length)
  return { prefix, account: bech32Of(prefix, decoded.bytes) }
}

/**
 * x/slashing (v0.50 keeper.HandleValidatorSignature): a validator is jailed for downtime once its missed-blocks
 * counter exceeds window - round(window * min_signed_per_window), and only after start_height + window. Only an
 * absent vote counts as a miss. Returns how many misses it may still take before the one that jails it.
 */
export function jailArithmetic(params: SlashingParams, missed: number): { maxMissed: number; remaining: number } {
  const minSigned = Math.round(params.signedBlocksWindow * params.minSignedPerWindow)
  const maxMissed = params.signedBlocksWindow - minSigned
  return { maxMissed, remaining: Math.max(0, maxMissed - missed + 1) }
}
