import type { ReadFailure } from '../util/errors.js'
/** Bumped when a bundle written by this version could not be read by an older one. */
export const SNAPSHOT_FORMAT_VERSION = 1

export interface ObjectMeta {
  name: string
  namespace?: string
  uid?: string
  generation?: number
  resourceVersion?: string
  creationTimestamp?: string
  deletionTimestamp?: string
  deletionGracePeriodSeconds?: number
  labels?: Record<string, string>
  annotations?: Record<string, string>
  ownerReferences?: { apiVersion: string; kind: string; name: string; uid: string; controller?: boolean }[]
}

/**
 * Any Kubernetes object as the API server returned it (apiVersion and kind always set). What else it holds is
 * unknown until checked: the kinds we read have typed views (kinds.ts) with the fields rules and renderers use.
 */
export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: ObjectMeta
  [field: string]: unknown
}

export interface ObjectRef {
  kind: string
  namespace?: string
  name: string
}

/** One row of the server-side Table for a ChainNode: exactly what `kubectl get -o wide` prints. */
export interface TableRow {
  namespace: string
  name: string
  columns: { name: string; type: string; priority: number }[]
  cells: unknown[]
}

export interface LogRecord {
  namespace: string
  pod: string
  container: string
  previous: boolean
  text: string
  truncated: boolean
  error?: string
}

/** Why a read failed, in the words the report uses. */
/** 'left-out': read, or readable, but not kept (a bundle's size limit), or missing from the bundle a run replays. */
export type FailureReason = ReadFailure | 'left-out'

export interface CollectionError {
  /** What could not be read, e.g. "list events in sc-healthy". */
  what: string
  namespace?: string
  reason: FailureReason
  message: string
}

/** The result of an active check (port-forward to pprof, signer probes, the chain), recorded like any other read. */
export interface ProbeRecord {
  kind: 'pprof' | 'signer-http' | 'signer-gate' | 'chain'
  namespace: string
  pod: string
  target: string
  ok: boolean
  detail: string
  at: string
  /** What the node itself said (kind 'chain' only). */
  chain?: ChainFacts
  /** The check itself could not run (the port-forward failed): not ok, and not an answer of the target either. */
  couldNotRun?: boolean
}

/** One reading of CometBFT's /status. */
export interface ChainSample {
  at: string
  height: number
  /** Time of the latest block (absent before the first block). */
  blockTime?: string
  catchingUp: boolean
}

/** What the chain probe measured on one node, through a port-forward to its Pod. */
export interface ChainFacts {
  /** First /status reading on 26657. */
  status?: ChainSample & { earliestHeight: number; network: string; nodeId: string }
  /** Second /status reading, taken only when the last block was old. */
  resample?: ChainSample
  /**
   * No second reading was needed: the first showed a last block older than STALE_BLOCK_MS (snapshot/chain.ts) on a
   * node not catching up, or no block yet on a node whose container had run that long (runningSince), a stall; or the
   * node's own log showed its consensus stuck above that height for longer than the window (stuckInLog).
   */
  stale?: boolean
  /** When the node's container started, where it decided a stall at height 0 (stale). */
  runningSince?: string
  /** Its main container's log, where that decided the stall (stale): consensus timed out above the height read. */
  stuckInLog?: { source: string; height: number; since: string; at: string; text: string }
  /** /net_info on 26657 (the peer list is capped; the counts are not). */
  peers?: { at: string; total: number; inbound: number; outbound: number; list: { id: string; address: string; outbound: boolean }[] }
  /** node-utils HTTP API, when the Pod exposes it. */
  nodeUtils?: { port: number; at: string; latestHeight?: number; stateSyncing?: boolean; problems: string[] }
  /** State-sync restore: the rendered trust height/hash and what each RPC server says about them. */
  stateSync?: {
    trustHeight?: number
    trustHash?: string
    servers: { url: string; at: string; latestHeight?: number; hashAtTrustHeight?: string; problem?: string }[]
  }
  /** `validator_info` of /status: the key this process signs with and its voting power (0 when not a validator). */
  validator?: { address: string; votingPower: number }
  /** The blocks a validator signed, read from the chain (validators only; see snapshot/signing.ts). */
  signing?: SigningReading
  /** What the chain's Cosmos SDK modules say (slashing, staking, upgrade, gov), read over abci_query (cluster/cosmos-probe.ts). */
  cosmos?: CosmosReading
  /** One line per read that gave no usable answer (what was read, what came back). */
  problems: string[]
}

/** x/slashing's parameters as the chain holds them. */
export interface SlashingParams {
  signedBlocksWindow: number
  /** A fraction (0.5), read from the SDK's LegacyDec. */
  minSignedPerWindow: number
  downtimeJailSeconds: number
  slashFractionDowntime?: number
  slashFractionDoubleSign?: number
}

/** x/upgrade's pending plan. */
export interface UpgradePlan {
  name: string
  height: number
  info: string
}

/** A gov v1 proposal in its voting period. */
export interface CosmosProposal {
  id: string
  title: string
  votingStartTime?: string
  votingEndTime?: string
  expedited: boolean
}

/** What the chain says about one validator, its addresses converted from its consensus key (never guessed). */
export interface CosmosValidatorReading {
  /** Upper-case hex consensus address, and its bech32 form with the chain's prefix. */
  consensusAddress: string
  valcons?: string
  /** The operator address: from .status.validatorAddress, or found on the chain by the consensus key. */
  valoper?: string
  valoperFrom?: 'status' | 'chain'
  /** The validator's account (the valoper's bytes with the account prefix): the voter of its governance votes. */
  account?: string
  signingInfo?: { address: string; startHeight: number; indexOffset: number; missedBlocksCounter: number; jailedUntil?: string; tombstoned: boolean }
  staking?: { operatorAddress: string; jailed: boolean; status: 'bonded' | 'unbonding' | 'unbonded' | 'unspecified'; tokens: string; moniker: string }
  /** Per proposal id in voting period: the options it voted, or null when it has not voted. */
  votes?: Record<string, string[] | null>
}

/**
 * The Cosmos SDK layer of a node's chain: read once per chain (params, plan, proposals, block time) and per
 * validator (signing info, staking, votes). A part that could not be read is absent and `unknown` says why:
 * "cannot tell", never a default value taken for an answer.
 */
export interface CosmosReading {
  at: string
  /** The RPC the chain was read from (the node's own, or another node of the chain in scope). */
  source: string
  /** The height the answers are at, and the mean block interval over the recent blocks (the ETA's base). */
  height?: number
  blockTimeMs?: number
  /** The chain's account prefix ("cosmos"). */
  prefix?: string
  slashing?: SlashingParams
  /** The pending plan; null: the chain has none. */
  upgradePlan?: UpgradePlan | null
  /** Proposals in voting period (the first page), and how many there are. */
  proposals?: CosmosProposal[]
  proposalsTotal?: number
  validator?: CosmosValidatorReading
  /** Why a part is absent: not a Cosmos SDK chain, a module the chain does not have, a read without an answer. */
  unknown: Partial<Record<'chain' | 'slashing' | 'upgrade' | 'governance' | 'validator' | 'signingInfo' | 'staking' | 'votes', string>>
  /** Requests the reading cost (the chain's part is shared by every node of the chain read in the same pass). */
  requests: number
}

/**
 * What the last commits of the chain say about one validator's consensus address: counted where they
 * were read (cluster/signing-probe.ts) so a bundle carries the result, not 100 commits.
 */
export interface SigningReading {
  at: string
  /** The consensus address counted (upper-case hex), and where it came from. */
  address: string
  addressFrom: 'pubKey' | 'status'
  /** The RPC the commits were read from: the node's own, or another node of the chain in scope. */
  source: string
  /** Commits asked for (--signing-window) and the heights read (canonical commits: the newest height is left out). */
  window: number
  fromHeight?: number
  toHeight?: number
  /** Commits counted; fewer than the window when the chain is young, pruned, or the budget ran out. */
  counted: number
  signed: number
  missed: number
  /** Missed heights, newest last (capped). */
  missedHeights: number[]
  firstMissed?: { height: number; time?: string }
  lastSigned?: { height: number; time?: string }
  /** From /validators at toHeight: absent from the set (or power 0) means not in the active set; undefined when not read. */
  votingPower?: number
  inActiveSet?: boolean
  /** Requests this reading cost (shared by every validator of the chain counted in the same pass). */
  requests: number
  /** One line per read that gave no usable answer, or why the window was cut short. */
  problems: string[]
}

/** What an earlier run saw of a node: lets config-hash tell a restart with a new hash from one with the same. */
export interface Observation {
  /** namespace/name of the ChainNode. */
  node: string
  at: string
  podUid?: string
  podCreated?: string
  podHash?: string
  configMapHash?: string
  generation?: number
  podGeneration?: string
  /** A fingerprint of each key of the node's rendered configuration (analysis/config-diff.ts configKeyDigests). */
  configKeys?: Record<string, string>
}

export type ScopeKind = 'node' | 'set' | 'namespace' | 'all'
export interface Scope {
  kind: ScopeKind
  namespace?: string
  name?: string
  /** -l as given (never with a name): the API server lists only the ChainNodes it selects; a bundle is narrowed by it. */
  selector?: string
}

export interface Snapshot {
  formatVersion: number
  collectedAt: string
  cliVersion: string
  source: { context: string; server: string }
  scope: Scope
  objects: KubeObject[]
  chainNodeRows: TableRow[]
  logs: LogRecord[]
  probes: ProbeRecord[]
  collectionErrors: CollectionError[]
  stats: { requests: number; durationMs: number }
  redactions: number
  /** What a bundle does not carry (a log past the size limit, a container that did not answer), with why (manifest leftOut). */
  leftOut?: CollectionError[]
  /** Redactions by bundle file and pattern name (counts only, never the values); absent in old bundles. */
  redactionsByFile?: Record<string, Record<string, number>>
  /**
   * When doctor read the logs of look-alike Pods for a sample of them: per Pod left out ("namespace/pod"),
   * the sampled Pod ("namespace/pod") whose logs stand for its own.
   */
  logSample?: { perGroup: number; standIns: Record<string, string> }
  /** Earlier observations of the nodes in scope, from the local history (absent in old bundles). */
  observations?: Observation[]
  /** Where the other holders of the validator keys in scope were looked for, and what was found (absent: no search). */
  keySearch?: KeySearch
}

/**
 * Nodes outside the scope, read only to find every node presenting a validator key of a node in scope
 * (cluster/key-holders.ts): context for double-sign-risk, never diagnosed themselves.
 */
export interface KeySearch {
  /** The whole cluster, or only these namespaces (a cluster-wide list was refused, or the bundle holds no more). */
  where: 'cluster' | 'namespaces'
  namespaces?: string[]
  /** Why the search covered less than it might have, one line each (a 403 on the cluster-wide list). */
  notes: string[]
  /** The running ChainNodes on a chain of a validator in scope, outside the scope. */
  nodes: KubeObject[]
  /** Their /status, as chain probe records. */
  probes: ProbeRecord[]
}
