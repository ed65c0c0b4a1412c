import type { ChainFacts, ProbeRecord, Snapshot } from './types.js'
import type { Pod } from './kinds.js'

/** CometBFT RPC port (`rpc.laddr tcp://0.0.0.0:26657` in the operator's config.toml). */
export const COMET_RPC_PORT = 26657
/**
 * A last block younger than this says the height moves, without a second reading. Cosmos chains
 * commit every 1 to 7 seconds: 20 s is three missed blocks on the slowest common chains.
 */
export const RECENT_BLOCK_MS = 20_000
/**
 * A last block older than this on a node not catching up is a stall without a second reading: a chain that has not
 * committed for a minute does not start again within the probe window, and the second reading said so anyway.
 */
export const STALE_BLOCK_MS = 60_000

export type Movement =
  | { kind: 'moving'; blockAgeMs: number }
  | { kind: 'catching-up'; blocksPerSecond: number }
  | { kind: 'stalled'; height: number; since?: string }
  | { kind: 'unknown' }

/** The chain probe record of a Pod, when the run took one. */
export function chainProbeOf(snapshot: Snapshot, pod: Pod | undefined): ProbeRecord | undefined {
  if (!pod) return undefined
  return snapshot.probes.find((p) => p.kind === 'chain' && p.namespace === pod.metadata.namespace && p.pod === pod.metadata.name)
}

/**
 * Where the other holders of the validator keys in scope were looked for, when less than the cluster and why
 * ("looked for in NS only (not allowed to list ChainNodes cluster-wide (403))"); undefined otherwise. Said only
 * with its reason: a bundle of a namespace saw that namespace alone, and says so already.
 */
export function keySearchLimit(snapshot: Snapshot): string | undefined {
  const search = snapshot.keySearch
  if (search?.where !== 'namespaces' || search.notes.length === 0) return undefined
  return `looked for in ${search.namespaces?.join(', ') ?? 'the namespace'} only (${search.notes.join('; ')})`
}

/** Age of the last block when the probe read it (undefined before the first block). */
export function blockAgeMs(facts: ChainFacts): number | undefined {
  const status = facts.resample ?? facts.status
  if (!status?.blockTime || status.height === 0) return undefined
  return Math.max(0, Date.parse(status.at) - Date.parse(status.blockTime))
}

export function isRecent(facts: ChainFacts): boolean {
  const status = facts.status
  if (!status?.blockTime || status.height === 0) return false
  return Date.parse(status.at) - Date.parse(status.blockTime) <= RECENT_BLOCK_MS
}

/**
 * Whether the height moves: a stale reading (ChainFacts.stale: a last block a minute old, or the node's log stuck above
 * it) is a stall, a recent last block moves, both at once; an old one needs the second reading.
 */
export function movementOf(facts: ChainFacts): Movement {
  const first = facts.status
  if (!first) return { kind: 'unknown' }
  const second = facts.resample
  if (!second && facts.stale) return { kind: 'stalled', height: first.height, since: first.blockTime }
  if (isRecent(facts)) return { kind: 'moving', blockAgeMs: Date.parse(first.at) - Date.parse(first.blockTime!) }
  if (!second) return { kind: 'unknown' }
  if (second.height > first.height) {
    const seconds = Math.max(0.001, (Date.parse(second.at) - Date.parse(first.at)) / 1000)
    return { kind: 'catching-up', blocksPerSecond: (second.height - first.height) / seconds }
  }
  const since = first.height > 0 ? first.blockTime : undefined
  return { kind: 'stalled', height: first.height, since }
}

/** One line for humans and for the probe record's detail. */
export function describeMovement(movement: Movement): string {
  switch (movement.kind) {
    case 'moving':
      return `moving (last block ${Math.round(movement.blockAgeMs / 1000)}s old)`
    case 'catching-up':
      return `catching up at ${movement.blocksPerSecond >= 10 ? movement.blocksPerSecond.toFixed(0) : movement.blocksPerSecond.toFixed(1)} blocks/s`
    case 'stalled':
      return `stalled at ${movement.height}${movement.since ? ` since ${movement.since}` : ' (no block yet)'}`
    default:
      return 'height movement unknown'
  }
}
