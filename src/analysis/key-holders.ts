/**
 * Who presents one validator key, and which of them keeps signing: decided from what the snapshot measured
 * (each holder's /status, its ChainNode, the chain's last commits), the same whichever holder's scope it is
 * read from, so two nodes are never each told to stop the other.
 */
import { keySearchLimit } from '../snapshot/chain.js'
import { isKind, type ChainNode } from '../snapshot/kinds.js'
import { containerStatus, mainContainerName } from '../snapshot/node-layout.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { consensusAddressOf } from '../snapshot/signing.js'
import type { ProbeRecord, SigningReading } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'

/**
 * Blocks a holder may be behind the key's last signature and still be the process that cast it: the
 * holders' heights are read a second or two apart, and the commit counted is one block behind the tip.
 */
export const SIGNING_LAG_BLOCKS = 10

export interface KeyHolder {
  /** "namespace/name" of the ChainNode (its Pod has the same name). */
  node: string
  target: string
  height: number
  /** When its /status was read. */
  at: string
  /** When its ChainNode was created (absent when the ChainNode was not read). */
  created?: string
  /** When its chain container started running (absent when its Pod was not read or the container is not running). */
  started?: string
  /** Its ChainNode is a validator whose .status.pubKey is this key. */
  managed: boolean
  /** Its ChainNode was read (in scope, or as context of the key search). */
  known: boolean
}

export interface KeyHolders {
  address: string
  network: string
  /** The key's voting power: the largest that any holder's /status or the chain's validator set gives it. */
  votingPower: number
  /** Every running node presenting the key, ordered by name. */
  holders: KeyHolder[]
  /** The height of the key's newest signature in the commits counted, when the chain was read. */
  lastSigned?: number
  /** The holder that keeps signing, and the ones to stop; no keeper when the evidence cannot tell. */
  keep?: string
  stop: string[]
  /** Why that one keeps signing, or why it cannot be told. */
  why: string
  /** Where the other holders were looked for, when the search covered less than the cluster. */
  searched?: string
}

/** Chain probe records of the snapshot: the nodes in scope, then the key search's, each Pod once. */
function chainRecords(index: SnapshotIndex): ProbeRecord[] {
  const seen = new Set<string>()
  const records: ProbeRecord[] = []
  for (const record of [...index.snapshot.probes, ...(index.snapshot.keySearch?.probes ?? [])]) {
    const key = `${record.namespace}/${record.pod}`
    if (record.kind !== 'chain' || !record.chain?.status || seen.has(key)) continue
    seen.add(key)
    records.push(record)
  }
  return records
}

/** What the chain's last commits say of a key: any signing reading of that address on that network. */
function readingOf(records: readonly ProbeRecord[], network: string, address: string): SigningReading | undefined {
  return records
    .filter((r) => r.chain?.status?.network === network && r.chain.signing?.address === address && r.chain.signing.counted > 0)
    .map((r) => r.chain!.signing!)
    .sort((a, b) => (b.toHeight ?? 0) - (a.toHeight ?? 0))[0]
}

function chainNodeOf(index: SnapshotIndex, record: ProbeRecord): ChainNode | undefined {
  const inScope = index.get('ChainNode', record.namespace, record.pod)
  if (inScope) return inScope
  const context = index.snapshot.keySearch?.nodes.find((n) => n.metadata.namespace === record.namespace && n.metadata.name === record.pod)
  return context && isKind(context, 'ChainNode') ? context : undefined
}

/**
 * Every running node presenting the key `record` presents, when the key has voting power and more than one
 * node presents it; undefined otherwise.
 */
export function keyHoldersOf(index: SnapshotIndex, own: ProbeRecord): KeyHolders | undefined {
  const network = own.chain?.status?.network
  const address = own.chain?.validator?.address
  if (!network || !address) return undefined
  const records = chainRecords(index).filter((r) => r.chain!.status!.network === network && r.chain!.validator?.address === address)
  const reading = readingOf(chainRecords(index), network, address)
  // A standby not at the tip reports power 0 for a key the chain gives power to: the chain's word counts.
  const votingPower = Math.max(reading?.votingPower ?? 0, ...records.map((r) => r.chain!.validator!.votingPower))
  if (records.length < 2 || votingPower <= 0) return undefined
  const holders = records
    .map((record): KeyHolder => {
      const node = chainNodeOf(index, record)
      const pod = index.get('Pod', record.namespace, record.pod)
      const main = mainContainerName(node, pod)
      return {
        node: `${record.namespace}/${record.pod}`,
        target: record.target,
        height: record.chain!.status!.height,
        at: record.chain!.status!.at,
        created: node?.metadata.creationTimestamp,
        started: (main && containerStatus(pod, main)?.state?.running?.startedAt) || undefined,
        managed: Boolean(node?.spec?.validator) && consensusAddressOf(node?.status?.pubKey) === address,
        known: node !== undefined,
      }
    })
    .sort((a, b) => compareText(a.node, b.node))
  const lastSigned = reading?.lastSigned?.height
  const searched = keySearchLimit(index.snapshot)
  return { address, network, votingPower, holders, lastSigned, ...decide(holders, lastSigned), ...(searched ? { searched } : {}) }
}

const names = (holders: readonly KeyHolder[]) => holders.map((h) => h.node).join(', ')

/**
 * The ChainNode that holds the key as its .status.pubKey and is at the tip (the key's last signature, or the
 * highest holder) keeps signing; a holder not managed as that validator, lagging, or created later stops.
 */
export function decide(holders: readonly KeyHolder[], lastSigned: number | undefined): Pick<KeyHolders, 'keep' | 'stop' | 'why'> {
  const tip = lastSigned ?? Math.max(...holders.map((h) => h.height))
  const tipText = lastSigned !== undefined ? `the key last signed height ${lastSigned}` : `the highest holder is at height ${tip}`
  // A node at height 0 has applied no block, so it signed none, however young the chain (at height 8 every height
  // is within the lag).
  const atTip = (h: KeyHolder) => h.height > 0 && h.height >= tip - SIGNING_LAG_BLOCKS
  const managed = holders.filter((h) => h.managed)
  const unknown = holders.filter((h) => !h.known)
  const candidates = managed.length > 0 ? managed : holders
  const keepOnly = (keeper: KeyHolder, why: string) => ({ keep: keeper.node, stop: holders.filter((h) => h !== keeper).map((h) => h.node), why })
  if (managed.length === 0 && unknown.length > 0)
    return { stop: [], why: `the ChainNode of ${names(unknown)} was not read, and no holder's ChainNode has the key as its .status.pubKey` }
  const signing = candidates.filter(atTip)
  const unmanagedAtTip = holders.filter((h) => !h.managed && atTip(h))
  if (managed.length > 0 && signing.length === 0 && unmanagedAtTip.length > 0)
    return {
      stop: [],
      why: `${names(managed)} ${managed.length === 1 ? "holds the key as its ChainNode's .status.pubKey but lags" : "hold the key as their ChainNodes' .status.pubKey but lag"} (${heights(managed)}; ${tipText}), while ${names(unmanagedAtTip)}, not managed as that validator, ${unmanagedAtTip.length === 1 ? 'is' : 'are'} at the tip`,
    }
  const lagging = (others: readonly KeyHolder[]) => {
    const behind = others.filter((h) => !atTip(h))
    return behind.length ? `; ${names(behind)} lag${behind.length === 1 ? 's' : ''} (${heights(behind)}), so cannot have cast those signatures` : ''
  }
  const unmanaged = holders.filter((h) => !h.managed)
  const unmanagedText =
    managed.length > 0 && unmanaged.length ? `; ${names(unmanaged)} ${unmanaged.length === 1 ? 'is' : 'are'} not managed as that validator` : ''
  // No candidate at the tip (another process signs, or the chain was not read): the candidates are judged as they are.
  const pool = signing.length > 0 ? signing : candidates
  if (pool.length === 1) {
    const [keeper] = pool
    const role = keeper.managed ? "holds the key as its ChainNode's .status.pubKey and " : ''
    return keepOnly(
      keeper,
      `${keeper.node} ${role}is at height ${keeper.height} (${tipText})${unmanagedText}${lagging(holders.filter((h) => h !== keeper && h.managed === keeper.managed))}`,
    )
  }
  // Several alike: the first created is the validator, a later copy the stand-in, when the times differ.
  const alike = `${names(pool)} ${signing.length > 0 ? 'are all at the tip' : 'all lag'} (${heights(pool)}; ${tipText})`
  const created = pool
    .filter((h) => h.created !== undefined && !Number.isNaN(Date.parse(h.created)))
    .sort((a, b) => Date.parse(a.created!) - Date.parse(b.created!))
  if (created.length === pool.length && Date.parse(created[0].created!) < Date.parse(created[1].created!)) {
    const later = created.slice(1)
    return keepOnly(
      created[0],
      `${alike}; ${created[0].node} was created first (${created[0].created}), ${names(later)} later (${later.map((h) => h.created).join(', ')})${unmanagedText}`,
    )
  }
  const why =
    created.length === pool.length ? 'were created at the same time' : `the creation time of ${names(pool.filter((h) => !created.includes(h)))} is unknown`
  return { stop: [], why: `${managed.length > 1 ? `${names(pool)} all hold the key as their ChainNodes' .status.pubKey; ` : ''}${alike} and ${why}` }
}

const heights = (holders: readonly KeyHolder[]) =>
  holders.length === 1 ? `height ${holders[0].height}` : holders.map((h) => `${h.node.split('/')[1]} at ${h.height}`).join(', ')
