import type { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'
import { parseDuration } from '../util/duration.js'
import { reconcileLines } from './reconcile-log.js'
import { causeAction, classifyReconcileError } from './reconcile-causes.js'
import { annotation } from '../snapshot/operator.js'
import { eventFirstTime, eventTime } from '../snapshot/events.js'
import type { ChainNode, Pod } from '../snapshot/kinds.js'

const MIN = 60_000
/**
 * How long each transitional phase may last before it is a finding. Data init and first start are
 * bounded by the node's own budgets (initTimeout, startupTime, default 5m and 1h) plus a margin;
 * a recreated or upgraded Pod gets 5 minutes to start before the operator gives up on it.
 */
const DEFAULT_PHASE_TIMEOUTS_MS: Record<string, number> = {
  InitializingData: 30 * MIN,
  InitGenesis: 15 * MIN,
  Starting: 70 * MIN,
  Restarting: 15 * MIN,
  Upgrading: 15 * MIN,
  Snapshotting: 2 * 60 * MIN,
}
export const STUCK_PHASES = Object.keys(DEFAULT_PHASE_TIMEOUTS_MS)
const MARGIN_MS = 10 * MIN

/** How long the node may hold a phase: the default, or its own budget when its spec sets a longer one. */
export function phaseBudgetMs(node: ChainNode, phase: string): number {
  return Math.max(DEFAULT_PHASE_TIMEOUTS_MS[phase] ?? 0, nodeBudgetMs(node, phase) ?? 0)
}

function nodeBudgetMs(node: ChainNode, phase: string): number | undefined {
  const budget: unknown = phase === 'InitializingData' ? node.spec?.persistence?.initTimeout : phase === 'Starting' ? node.spec?.config?.startupTime : undefined
  if (typeof budget !== 'string') return undefined
  try {
    return parseDuration(budget, 'budget') + MARGIN_MS
  } catch {
    return undefined
  }
}

/** The operator waits this long for the old Pod to go before it calls it a timeout (constant.go timeoutPodDeleted). */
const POD_DELETE_WAIT_MS = 2 * MIN

/** The specific reason the phase holds: the old Pod still terminating, or the latest operator error's own words. */
export function whyPhaseHolds(
  node: ChainNode,
  latestError: string | undefined,
  pod: { metadata: { name: string; deletionTimestamp?: string; finalizers?: string[] } } | undefined,
  now: number,
  operator: string,
): { detail: string; action: string } | undefined {
  const { namespace = 'default', name } = node.metadata
  const ctx = { namespace, node: name, operator }
  const terminatingSince = pod?.metadata.deletionTimestamp
  if (terminatingSince && now - Date.parse(terminatingSince) > POD_DELETE_WAIT_MS) {
    const finalizers = pod.metadata.finalizers?.length ? ` (finalizers: ${pod.metadata.finalizers.join(', ')})` : ''
    return {
      detail: `the old Pod ${pod.metadata.name} has been terminating since ${terminatingSince}${finalizers}, and the operator creates the new one only once it is gone`,
      action: causeAction({ cause: 'pod-terminating', object: pod.metadata.name }, ctx),
    }
  }
  if (!latestError) return undefined
  const match = classifyReconcileError(latestError)
  if (!match.detail) return undefined
  return { detail: match.detail, action: causeAction(match, ctx) }
}

/** When a node entered its current phase, and what says so. */
export interface PhaseStart {
  at: string
  source: string
  /** The operator logged the change itself; otherwise the time is read off what the phase creates. */
  exact: boolean
}

interface Candidate {
  at?: string
  source: string
}

/**
 * The operator keeps no condition or transition time for the phase (ChainNode status has only
 * `Upgrade` and `SnapshotExportCleanup` conditions). It logs `updating .status.phase` with the new
 * phase, and each phase creates something with a creation time: the data PVC and `<n>-init-data`
 * for InitializingData, `<n>-genesis-init` for InitGenesis, the node Pod for Starting, Restarting and
 * Upgrading, a VolumeSnapshot for Snapshotting. Its log line wins; otherwise the earliest of those.
 */
export function phaseStart(index: SnapshotIndex, node: ChainNode): PhaseStart | undefined {
  const phase: string | undefined = node.status?.phase
  if (!phase) return undefined
  const logged = reconcileLines(index, node, 'ChainNode', node.metadata.name).filter((line) => line.msg === 'updating .status.phase')
  const last = logged.at(-1)
  if (last?.phase === phase) return { at: last.at, source: `operator log: updating .status.phase`, exact: true }
  // A time read off a stranger's object may be anything: only a string is parsed (a deep array would recurse in toString).
  const candidates = candidatesFor(index, node, phase).filter((c): c is Required<Candidate> => typeof c.at === 'string' && !Number.isNaN(Date.parse(c.at)))
  if (candidates.length === 0) return undefined
  const earliest = candidates.sort((a, b) => compareText(a.at, b.at))[0]
  return { ...earliest, exact: false }
}

function candidatesFor(index: SnapshotIndex, node: ChainNode, phase: string): Candidate[] {
  const { namespace, name } = node.metadata
  const created = (obj: KubeObject | undefined): Candidate => ({
    at: obj?.metadata.creationTimestamp,
    source: `${obj?.kind}/${obj?.metadata.name} created`,
  })
  // A Pod's start time is when the kubelet took it: the same moment, and what survives a re-created object.
  const pod = (obj: Pod | undefined): Candidate[] => {
    // A Pod being deleted is the one the phase replaces: the phase began when its deletion was asked for.
    const deleting = obj?.metadata.deletionTimestamp
    if (deleting) {
      const asked = Date.parse(deleting) - (obj.metadata.deletionGracePeriodSeconds ?? 0) * 1000
      return [{ at: Number.isNaN(asked) ? undefined : new Date(asked).toISOString(), source: `Pod/${obj.metadata.name} deletion requested` }]
    }
    return [created(obj), { at: obj?.status?.startTime, source: `Pod/${obj?.metadata.name} started` }]
  }
  const event = (reason: string, first: boolean): Candidate => {
    const events = index.eventsFor(node).filter((e) => e.reason === reason)
    const chosen = first ? events[0] : events.at(-1)
    return { at: chosen && (first ? eventFirstTime(chosen) : eventTime(chosen)), source: `Event ${reason} on ChainNode/${name}` }
  }
  switch (phase) {
    case 'InitializingData': {
      const pvc = index.dataPvcOf(node)
      // The operator creates the data PVC and moves to InitializingData in the same reconcile; a PVC
      // older than the node was re-used and says nothing about the phase.
      const fresh =
        pvc &&
        pvc.metadata.annotations?.[annotation('data-initialized')] !== 'true' &&
        compareText(pvc.metadata.creationTimestamp ?? '', node.metadata.creationTimestamp ?? '') >= 0
      return [...(fresh ? [created(pvc)] : []), ...pod(index.get('Pod', namespace, `${name}-init-data`)), event('DataInitStarted', true)]
    }
    case 'InitGenesis':
      return [...pod(index.get('Pod', namespace, `${name}-genesis-init`)), event('DataInitialized', false)]
    case 'Starting':
    case 'Restarting':
    case 'Upgrading':
      return pod(index.podOf(node))
    case 'Snapshotting': {
      const active = index.volumeSnapshotsOf(node).filter((snap) => snap.status?.readyToUse !== true)
      return [...active.map(created), event('SnapshotStarted', false)]
    }
    default:
      return []
  }
}
