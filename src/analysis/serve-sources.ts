import type { CollectionError, FailureReason, Snapshot } from '../snapshot/types.js'

/** Where serve's readings come from: each can fail on its own while the others answer. */
export const SOURCES = ['apiserver', 'operator_logs', 'chain_probe', 'signing'] as const
export type Source = (typeof SOURCES)[number]

/** What one cycle could read of one source. */
export interface SourceHealth {
  source: Source
  /** false when a read of the source failed in the cycle (the exporter is blind to what it would have shown). */
  up: boolean
  /** Reads of the source that failed. */
  errors: number
}

/** Failures where the API server gave no answer at all: its lists are then unknown, not empty. */
const NO_ANSWER: readonly FailureReason[] = ['unreachable', 'timeout', 'tls', 'error']

const isManagerLog = (e: CollectionError) => /^logs of [^ ]+\/manager\b/.test(e.what)
const isChainPortForward = (e: CollectionError) => /^port-forward to .*chain probe/.test(e.what)
const isLog = (e: CollectionError) => e.what.startsWith('logs of ')

/**
 * The health of each source one snapshot read, in SOURCES order; a source the run did not read (no probe, no
 * operator in scope, no validator) is left out. The API server is down when one of its lists or objects got no
 * answer (a Forbidden is an answer: an error, not blindness; a node's log is counted as an error of the API
 * server, but not as blindness); the others are down when any read failed:
 * a manager log of the operator, a port-forward of the chain probe, a validator's signing window counted on no commit.
 */
export function sourcesOf(snapshot: Snapshot): SourceHealth[] {
  const errors = snapshot.collectionErrors
  const api = errors.filter((e) => !isManagerLog(e) && !isChainPortForward(e))
  const managerLogErrors = errors.filter(isManagerLog).length
  const chainProbes = snapshot.probes.filter((p) => p.kind === 'chain')
  const portForwardErrors = errors.filter(isChainPortForward).length
  const signing = chainProbes.flatMap((p) => (p.chain?.signing ? [p.chain.signing] : []))
  const signingErrors = signing.filter((s) => s.counted === 0).length
  // A node's log the API server could not fetch (its kubelet away) is an error, but the API server answered.
  const unanswered = api.some((e) => !isLog(e) && NO_ANSWER.includes(e.reason))
  const health: SourceHealth[] = [{ source: 'apiserver', up: !unanswered, errors: api.length }]
  if (managerLogErrors > 0 || snapshot.logs.some((log) => log.container === 'manager'))
    health.push({ source: 'operator_logs', up: managerLogErrors === 0, errors: managerLogErrors })
  if (portForwardErrors > 0 || chainProbes.length > 0) health.push({ source: 'chain_probe', up: portForwardErrors === 0, errors: portForwardErrors })
  if (signing.length > 0) health.push({ source: 'signing', up: signingErrors === 0, errors: signingErrors })
  return health
}

/** Several clusters (--context a,b): a source is up only where every cluster read it; errors add up. */
export function mergeSources(perCluster: readonly SourceHealth[][]): SourceHealth[] {
  return SOURCES.flatMap((source) => {
    const seen = perCluster.flat().filter((h) => h.source === source)
    return seen.length === 0 ? [] : [{ source, up: seen.every((h) => h.up), errors: seen.reduce((sum, h) => sum + h.errors, 0) }]
  })
}

/** A cycle that could not read the cluster at all: every source it read before is down; the API server counts one failed read. */
export function blindSources(previous: readonly SourceHealth[]): SourceHealth[] {
  const sources = new Set<Source>(['apiserver', ...previous.map((h) => h.source)])
  return SOURCES.filter((s) => sources.has(s)).map((source) => ({ source, up: false, errors: source === 'apiserver' ? 1 : 0 }))
}
