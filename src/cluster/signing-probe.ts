import { commitSigners, consensusAddressOf, countSigning, validatorPowers, type CommitSigners } from '../snapshot/signing.js'
import type { RpcResult } from '../snapshot/rpc-answer.js'
import { valueAt } from '../util/json-path.js'
import type { ChainFacts, ProbeRecord, SigningReading } from '../snapshot/types.js'
import type { PodGet } from './chain-probe.js'
import { ChainBatches } from './chain-batches.js'
import type { ChainNode } from '../snapshot/kinds.js'

export interface SigningProbeOptions {
  get: PodGet
  /** Commits to read per chain (--signing-window). */
  window: number
  /** Requests one chain's reading may cost: the window plus the validator set's pages. */
  maxRequests?: number
  /** After this long (the whole signing read, every chain), no further batch is asked for; what was read is counted. */
  deadlineMs?: number
  /** The nodes whose RPC may serve a chain's commits (default: the records): nodes outside the scope on that chain too. */
  sources?: ProbeRecord[]
}

/**
 * Slots for port-forwards, shared by every chain of one run. The chain read first is served first, so
 * when the deadline cuts a large fleet short, the chains read are whole, not every chain a little.
 */
function limiter(slots: number): (priority: number, work: () => Promise<(RpcResult | undefined)[]>) => Promise<(RpcResult | undefined)[]> {
  const waiting: { priority: number; start: () => void }[] = []
  let free = slots
  return async (priority, work) => {
    if (free === 0)
      await new Promise<void>((start) => {
        const at = waiting.findIndex((w) => w.priority > priority)
        waiting.splice(at < 0 ? waiting.length : at, 0, { priority, start })
      })
    else free--
    try {
      return await work()
    } finally {
      const next = waiting.shift()
      if (next) next.start()
      else free++
    }
  }
}

export const DEFAULT_SIGNING_WINDOW = 100
/** Batches in flight at once over every chain of the run (each is a call on a forwarded port). */
const PARALLEL_OVERALL = 8
const VALIDATORS_PER_PAGE = 100
const MAX_VALIDATOR_PAGES = 3
/** A batch of commits of a 200-validator set is about 1.25 MB of JSON. */
const BATCH_BYTES = 4 * 1024 * 1024

interface Validator {
  node: ChainNode
  record: ProbeRecord & { chain: ChainFacts }
  address: string
  addressFrom: SigningReading['addressFrom']
  network: string
}

/**
 * For every validator ChainNode whose Pod was probed, count the blocks its consensus address signed in
 * the last `window` commits. The commits of one chain are read once, from the node of that chain in
 * scope (or found holding a key in scope, options.sources) with the highest height (the validator's own RPC when it is the only one, another node of the
 * chain when its own does not answer), and counted for every validator of the chain: a fleet of
 * validators on one chain costs one window of requests, not one per validator.
 */
export async function probeSigning(records: ProbeRecord[], nodes: ChainNode[], options: SigningProbeOptions): Promise<void> {
  const validators = nodes.map((node) => validatorOf(node, records)).filter((v): v is Validator => v !== undefined)
  const chains = new Map<string, Validator[]>()
  for (const v of validators) chains.set(v.network, [...(chains.get(v.network) ?? []), v])
  const run: Run = { ...options, slot: limiter(PARALLEL_OVERALL), started: Date.now() }
  await Promise.all([...chains].map(([network, members], order) => readChain(network, members, options.sources ?? records, run, order)))
}

interface Run extends SigningProbeOptions {
  slot: ReturnType<typeof limiter>
  started: number
}

function validatorOf(node: ChainNode, records: ProbeRecord[]): Validator | undefined {
  if (!node.spec?.validator) return undefined
  const record = records.find((r) => r.namespace === node.metadata.namespace && r.pod === node.metadata.name)
  if (!record?.chain) return undefined
  const fromKey = consensusAddressOf(node.status?.pubKey)
  const address = fromKey ?? record.chain.validator?.address
  if (!address) return undefined
  const network = record.chain.status?.network || String(node.status?.chainID ?? '')
  return { node, record: record as Validator['record'], address: address.toUpperCase(), addressFrom: fromKey ? 'pubKey' : 'status', network }
}

async function readChain(network: string, members: Validator[], records: ProbeRecord[], options: Run, order: number): Promise<void> {
  const at = new Date().toISOString()
  const source = records
    .filter((r) => r.chain?.status && r.chain.status.network === network && network !== '')
    .sort((a, b) => b.chain!.status!.height - a.chain!.status!.height)[0]
  const base = (problems: string[], requests = 0) => ({
    at,
    window: options.window,
    source: source?.target ?? '',
    counted: 0,
    signed: 0,
    missed: 0,
    missedHeights: [] as number[],
    requests,
    problems,
  })
  if (!source) {
    for (const v of members)
      v.record.chain.signing = {
        ...base([`no RPC of chain ${network || '(unknown)'} in scope answered /status`]),
        address: v.address,
        addressFrom: v.addressFrom,
      }
    return
  }
  const { commits, powers, requests, problems } = await readCommits(source, options, order)
  for (const v of members) {
    const power = powers?.get(v.address)
    v.record.chain.signing = {
      ...base(problems, requests),
      address: v.address,
      addressFrom: v.addressFrom,
      ...countSigning(commits, v.address),
      votingPower: powers ? (power ?? 0) : undefined,
      inActiveSet: powers ? (power ?? 0) > 0 : undefined,
    }
  }
}

/** The newest canonical commits (the latest height's commit is not final yet) and the validator set at the top of the window. */
async function readCommits(source: ProbeRecord, options: Run, order: number) {
  const status = source.chain!.status!
  const top = status.height - 1
  const bottom = Math.max(1, status.earliestHeight || 1, top - options.window + 1)
  const maxRequests = options.maxRequests ?? options.window + MAX_VALIDATOR_PAGES
  const deadlineMs = options.deadlineMs ?? 15_000
  const problems: string[] = []
  const reads = new ChainBatches({
    get: options.get,
    source,
    answerBytes: BATCH_BYTES,
    started: options.started,
    deadlineMs,
    slot: (call) => options.slot(order, call),
  })
  if (top < 1) return { commits: [], powers: undefined, requests: 0, problems: [`chain at height ${status.height}: no committed block to count yet`] }

  // The validator set at the top of the window: page 1, then as many pages as its total needs (bounded).
  let powers: Map<string, number> | undefined
  const pages: unknown[] = []
  for (let page = 1; page <= MAX_VALIDATOR_PAGES; page++) {
    const [result] = await reads.read([`/validators?height=${top}&page=${page}&per_page=${VALIDATORS_PER_PAGE}`])
    if (!result) break
    pages.push(result)
    if (Number(valueAt(result, 'total') ?? 0) <= page * VALIDATORS_PER_PAGE) break
  }
  if (pages.length) powers = validatorPowers(pages)

  // Newest first, so a budget or a deadline keeps the most recent blocks.
  const heights: number[] = []
  for (let h = top; h >= bottom && pages.length + 1 + heights.length <= maxRequests; h--) heights.push(h)
  if (heights.length < top - bottom + 1) problems.push(`request budget of ${maxRequests} reached: ${heights.length} of ${top - bottom + 1} commits read`)
  const commits: CommitSigners[] = []
  for (const result of await reads.read(heights.map((h) => `/commit?height=${h}`))) {
    const commit = result && commitSigners(result)
    if (commit) commits.push(commit)
  }
  if (reads.cut) problems.push(`signing deadline of ${Math.max(0, deadlineMs) / 1000}s reached: ${commits.length} of ${heights.length} commits read`)
  // The first few reasons, then how many more: a node that refuses 100 reads is one line, not 100.
  problems.push(...reads.problems.slice(0, 3))
  if (reads.problems.length > 3) problems.push(`${reads.problems.length - 3} more read(s) without an answer`)
  return { commits, powers, requests: reads.requests, problems }
}
