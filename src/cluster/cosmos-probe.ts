import {
  abciAnswer,
  accountOfValoper,
  isUnknownQuery,
  meanBlockMs,
  prefixOf,
  proposalsOf,
  refusal,
  requests,
  PROPOSALS_PAGE,
  signingInfoOf,
  slashingParamsOf,
  stakingValidatorOf,
  upgradePlanOf,
  validatorsPageOf,
  valconsOf,
  voteOf,
  type AbciAnswer,
} from '../snapshot/cosmos.js'
import { consensusAddressOf } from '../snapshot/signing.js'
import type { ChainFacts, CosmosReading, CosmosValidatorReading, ProbeRecord } from '../snapshot/types.js'
import type { ChainNode } from '../snapshot/kinds.js'
import type { PodGet } from './chain-probe.js'
import { ChainBatches } from './chain-batches.js'
import type { RpcResult } from '../snapshot/rpc-answer.js'

export interface CosmosProbeOptions {
  get: PodGet
  /** Requests one chain's reading may cost (the chain's part, then each validator's). */
  maxRequests?: number
  /** After this long, no further batch is asked for; what was read stays. */
  deadlineMs?: number
}

/** Recent blocks the mean block time is taken over (one /blockchain answer holds at most 20). */
const BLOCK_TIME_SPAN = 20
const MAX_VALIDATOR_PAGES = 2
/** Requests of the chain's part: the account prefix, slashing params, upgrade plan, proposals and /blockchain. */
const CHAIN_PART = 5
/** A page of 200 validators with descriptions is a few hundred KB. */
const ANSWER_BYTES = 2 * 1024 * 1024

interface Member {
  record: ProbeRecord & { chain: ChainFacts }
  node: ChainNode
}

/**
 * For every probed node, what its chain's Cosmos SDK modules say, over abci_query on 26657: the chain's part
 * (account prefix, slashing params, upgrade plan, proposals in voting period, recent block time) read once per
 * chain from its highest node in scope, then each validator's signing info, staking record and votes. A chain that
 * is not a Cosmos SDK chain (CometBFT's kvstore) answers the first query without a prefix: every part is then
 * "cannot tell", with that reason.
 */
export async function probeCosmos(records: ProbeRecord[], nodes: ChainNode[], options: CosmosProbeOptions): Promise<void> {
  const chains = new Map<string, Member[]>()
  for (const record of records) {
    const node = nodes.find((n) => n.metadata.namespace === record.namespace && n.metadata.name === record.pod)
    // A node whose own RPC does not answer is read through another node of its chain (the operator's .status.chainID).
    const network = record.chain?.status?.network || String(node?.status?.chainID ?? '')
    if (!network || !node || !record.chain) continue
    chains.set(network, [...(chains.get(network) ?? []), { record: record as Member['record'], node }])
  }
  const started = Date.now()
  await Promise.all([...chains.values()].map((members) => readChain(members, options, started)))
}

async function readChain(members: Member[], options: CosmosProbeOptions, started: number): Promise<void> {
  const source = members.filter((m) => m.record.chain.status).sort((a, b) => b.record.chain.status!.height - a.record.chain.status!.height)[0]?.record
  if (!source) {
    const why = `no RPC of chain ${members[0].record.chain.status?.network ?? String(members[0].node.status?.chainID ?? '')} in scope answered /status`
    for (const m of members) m.record.chain.cosmos = { at: new Date().toISOString(), source: '', unknown: { chain: why }, requests: 0 }
    return
  }
  const height = source.chain.status!.height
  // Enough for every validator in scope and a full page of open proposals: the scope bounds it, the deadline too.
  const inScope = members.filter((m) => m.node.spec?.validator).length
  const maxRequests = options.maxRequests ?? CHAIN_PART + MAX_VALIDATOR_PAGES + inScope * (2 + PROPOSALS_PAGE)
  const deadlineMs = options.deadlineMs ?? 15_000
  const reads = new ChainBatches({ get: options.get, source, answerBytes: ANSWER_BYTES, started, deadlineMs, maxRequests })
  const cutText = () => (reads.cut === 'deadline' ? `deadline of ${deadlineMs / 1000}s reached` : reads.cut && `request budget of ${maxRequests} reached`)
  const asAnswers = (results: (RpcResult | undefined)[]): AbciAnswer[] =>
    results.map((r) => (r ? abciAnswer(r) : { problem: reads.problems.at(-1) ?? cutText() ?? 'not read' }))
  const ask = async (paths: string[]) => asAnswers(await reads.read(paths))
  const at = new Date().toISOString()
  const chain: Omit<CosmosReading, 'validator' | 'requests'> = { at, source: source.target, height, unknown: {} }

  // The chain's part in one round trip: four queries and the recent blocks' times.
  const blocks = `/blockchain?minHeight=${Math.max(1, height - BLOCK_TIME_SPAN)}&maxHeight=${height}`
  // Always asked: without it nothing else can be read.
  const first = await reads.read([requests.prefix(), requests.slashingParams(), requests.currentPlan(), requests.proposals(), blocks], false)
  const [prefixAnswer, paramsAnswer, planAnswer, proposalsAnswer] = asAnswers(first.slice(0, 4))
  const blockResult = first[4]
  chain.blockTimeMs = meanBlockMs(blockResult)?.ms
  const prefix = prefixOf(prefixAnswer)
  if ('problem' in prefix) {
    // No account prefix: not a Cosmos SDK app (a kvstore chain answers every path with an empty value), or no answer at all.
    const why =
      isUnknownQuery(prefixAnswer) || 'value' in prefixAnswer
        ? `not a Cosmos SDK chain (auth Bech32Prefix: ${prefix.problem})`
        : `the chain did not answer: ${prefix.problem}`
    for (const part of ['chain', 'slashing', 'upgrade', 'governance'] as const) chain.unknown[part] = why
    for (const m of members)
      m.record.chain.cosmos = { ...chain, unknown: { ...chain.unknown, ...(m.node.spec?.validator ? { validator: why } : {}) }, requests: reads.requests }
    return
  }
  chain.prefix = prefix.prefix
  const unreadable = (module: 'slashing' | 'upgrade' | 'governance', answer: AbciAnswer, problem: string) => {
    chain.unknown[module] = isUnknownQuery(answer) ? `the chain has no x/${module === 'governance' ? 'gov' : module} module (${refusal(answer)})` : problem
  }
  const params = slashingParamsOf(paramsAnswer)
  if ('problem' in params) unreadable('slashing', paramsAnswer, params.problem)
  else chain.slashing = params.params
  const plan = upgradePlanOf(planAnswer)
  if ('problem' in plan) unreadable('upgrade', planAnswer, plan.problem)
  else chain.upgradePlan = plan.plan
  const proposals = proposalsOf(proposalsAnswer)
  if ('problem' in proposals) unreadable('governance', proposalsAnswer, proposals.problem)
  else Object.assign(chain, { proposals: proposals.proposals, proposalsTotal: proposals.total })

  const validators = members
    .filter((m) => m.node.spec?.validator)
    .map((m) => ({ member: m, reading: validatorOf(m, prefix.prefix) }))
    .filter((v): v is { member: Member; reading: CosmosValidatorReading } => v.reading !== undefined)
  // A valoper the operator has not written yet is found on the chain by the consensus key (a few pages at most).
  if (validators.some((v) => !v.reading.valoper)) {
    let key: Uint8Array | undefined
    for (let page = 0; page < MAX_VALIDATOR_PAGES; page++) {
      const [answer] = await ask([requests.validators(key)])
      const read = validatorsPageOf(answer)
      if ('problem' in read) break
      for (const v of validators)
        if (!v.reading.valoper && read.byConsensus.has(v.reading.consensusAddress)) {
          v.reading.valoper = read.byConsensus.get(v.reading.consensusAddress)
          v.reading.valoperFrom = 'chain'
          v.reading.account = accountOfValoper(v.reading.valoper!)?.account
        }
      key = read.next
      if (!key) break
    }
  }
  const paths: string[] = []
  const plans = validators.map(({ reading }) => {
    const at = (path: string | undefined) => (path ? paths.push(path) - 1 : -1)
    return {
      signing: chain.slashing ? at(requests.signingInfo(reading.valcons!)) : -1,
      staking: at(reading.valoper && requests.validator(reading.valoper)),
      votes: (reading.account ? (chain.proposals ?? []) : []).map((p) => ({ id: p.id, at: at(requests.vote(p.id, reading.account!)) })),
    }
  })
  const answers = await ask(paths)
  validators.forEach(({ member, reading }, i) => {
    const plan = plans[i]
    const unknown: CosmosReading['unknown'] = { ...chain.unknown }
    if (plan.signing >= 0) {
      const read = signingInfoOf(answers[plan.signing])
      if ('info' in read) reading.signingInfo = read.info
      else unknown.signingInfo = `signing info of ${reading.valcons}: ${read.problem}`
    } else unknown.signingInfo = chain.unknown.slashing ?? 'not read'
    if (plan.staking >= 0) {
      const read = stakingValidatorOf(answers[plan.staking])
      if ('staking' in read) reading.staking = read.staking
      else unknown.staking = `staking validator ${reading.valoper}: ${read.problem}`
    } else
      unknown.staking = `no operator address: .status.validatorAddress is not set and no validator on the chain has consensus address ${reading.consensusAddress}`
    if (chain.proposals && !reading.account) unknown.votes = unknown.staking
    else if (plan.votes.length) {
      reading.votes = {}
      for (const { id, at } of plan.votes) {
        const read = voteOf(answers[at])
        if ('options' in read) reading.votes[id] = read.options
        else unknown.votes = `vote on proposal ${id}: ${read.problem}`
      }
    }
    member.record.chain.cosmos = { ...chain, unknown, validator: reading, requests: reads.requests }
  })
  for (const m of members)
    m.record.chain.cosmos ??= {
      ...chain,
      unknown: { ...chain.unknown, ...(m.node.spec?.validator ? { validator: 'no consensus key: neither .status.pubKey nor /status validator_info' } : {}) },
      requests: reads.requests,
    }
  if (reads.cut) for (const m of members) m.record.chain.cosmos!.unknown.chain ??= `reading cut short: ${cutText()}`
}

/** A validator's addresses: its consensus address from the operator's .status.pubKey (else /status), converted with the chain's prefix. */
function validatorOf(member: Member, prefix: string): CosmosValidatorReading | undefined {
  const consensusAddress = consensusAddressOf(member.node.status?.pubKey) ?? member.record.chain.validator?.address
  if (!consensusAddress || !/^[0-9A-F]{40}$/i.test(consensusAddress)) return undefined
  const reading: CosmosValidatorReading = { consensusAddress: consensusAddress.toUpperCase(), valcons: valconsOf(prefix, consensusAddress) }
  const valoper = member.node.status?.validatorAddress
  const account = typeof valoper === 'string' ? accountOfValoper(valoper) : undefined
  if (account && account.prefix === prefix) Object.assign(reading, { valoper, valoperFrom: 'status', account: account.account })
  return reading
}
