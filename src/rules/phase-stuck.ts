import { humanAge, parseDuration } from '../util/duration.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { phaseStart } from '../analysis/phase-since.js'
import { reconcileHistory } from '../analysis/reconcile-log.js'
import { causeAction, classifyReconcileError } from '../analysis/reconcile-causes.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { eventTime } from '../snapshot/events.js'
import type { ChainNode } from '../snapshot/kinds.js'

const MIN = 60_000
/**
 * How long each transitional phase may last before it is a finding. Data init and first start are
 * bounded by the node's own budgets (initTimeout, startupTime, default 5m and 1h) plus a margin;
 * a recreated or upgraded Pod gets 5 minutes to start before the operator gives up on it.
 */
export const DEFAULT_PHASE_TIMEOUTS_MS: Record<string, number> = {
  InitializingData: 30 * MIN,
  InitGenesis: 15 * MIN,
  Starting: 70 * MIN,
  Restarting: 15 * MIN,
  Upgrading: 15 * MIN,
  Snapshotting: 2 * 60 * MIN,
}
export const STUCK_PHASES = Object.keys(DEFAULT_PHASE_TIMEOUTS_MS)
const MARGIN_MS = 10 * MIN

/** The node's own budget for a phase, when its spec sets a longer one than the default. */
function nodeBudgetMs(node: ChainNode, phase: string): number | undefined {
  const budget: unknown = phase === 'InitializingData' ? node.spec?.persistence?.initTimeout : phase === 'Starting' ? node.spec?.config?.startupTime : undefined
  if (typeof budget !== 'string') return undefined
  try {
    return parseDuration(budget, 'budget') + MARGIN_MS
  } catch {
    return undefined
  }
}

/** What to read next when nothing the tool collected explains the wait. */
function nextRead(node: ChainNode, phase: string, operator: string | undefined): string {
  const { namespace, name } = node.metadata
  const operatorLog = operator
    ? `the operator log (kubectl logs -n ${operator.split('/')[0]} deploy/${operator.split('/')[1]} -c manager | grep ${name}; set debugMode=true for more)`
    : 'the operator log'
  const first = {
    InitializingData: `the logs of the data init Pod (kubectl logs -n ${namespace} ${name}-init-data --all-containers) and kubectl describe pod ${name}-init-data -n ${namespace}`,
    InitGenesis: `the logs of the genesis Pod (kubectl logs -n ${namespace} ${name}-genesis-init --all-containers)`,
    Snapshotting: `the VolumeSnapshot's status and Events (kubectl describe volumesnapshot -n ${namespace} -l chain-node=${name}) and the CSI snapshotter`,
  }[phase]
  return `${first ?? `kubectl describe pod ${name} -n ${namespace} and the node's logs (kubectl chainnode logs ${name} -n ${namespace} -c all)`}, then ${operatorLog}`
}

interface Data {
  phase: string
  since: string
  stuckForMs: number
  thresholdMs: number
  exact: boolean
  explained: boolean
  next: string
  /** Why the phase cannot move on, when the operator's error or the Pod says it specifically. */
  specific?: string
  specificAction?: string
}

/** The operator waits this long for the old Pod to go before it calls it a timeout (constant.go timeoutPodDeleted). */
const POD_DELETE_WAIT_MS = 2 * MIN

/** The specific reason the phase holds: the old Pod still terminating, or the latest operator error's own words. */
function specificCause(
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

export default defineRule<Data>({
  id: 'phase-stuck',
  title: 'The node holds a transitional phase too long',
  severity: 'error',
  severityNote: '(warning for `Snapshotting`)',
  specRow: 'Issue 20: a node stuck in InitializingData, InitGenesis, Starting, Restarting, Snapshotting or Upgrading',
  logs: ['operator'],
  // These name why the phase cannot move on.
  suppressedBy: [
    'image-pull',
    'restore-not-starting',
    'signer-discovery-timeout',
    'priority-class-missing',
    'legacy-signing-refused',
    'operator-missing',
    'leader-election',
    'webhook-certificates',
  ],
  check({ index, node, now, settings }) {
    const phase: string | undefined = node.status?.phase
    if (!phase || !(phase in DEFAULT_PHASE_TIMEOUTS_MS)) return []
    const thresholdMs = settings?.phaseTimeoutsMs?.[phase] ?? Math.max(DEFAULT_PHASE_TIMEOUTS_MS[phase], nodeBudgetMs(node, phase) ?? 0)
    const start = phaseStart(index, node)
    if (!start) return []
    const stuckForMs = now - Date.parse(start.at)
    if (stuckForMs <= thresholdMs) return []
    const since = Date.parse(start.at)
    const errors = reconcileHistory(index, node).groups.filter((group) => Date.parse(group.last) >= since)
    const { namespace, name } = node.metadata
    const related = [
      node,
      index.podOf(node),
      index.dataPvcOf(node),
      index.get('Pod', namespace, `${name}-init-data`),
      index.get('Pod', namespace, `${name}-genesis-init`),
    ]
    const events = related.flatMap((obj) => index.eventsFor(obj)).filter((event) => Date.parse(eventTime(event)) >= since)
    const warnings = events.filter((event) => event.type === 'Warning')
    const explained = errors.length > 0 || warnings.length > 0
    const operator = index.operatorFor(node)
    const operatorRef = operator ? `${operator.metadata.namespace}/${operator.metadata.name}` : 'cosmopilot-system/cosmopilot'
    const pod = index.podOf(node)
    const specific = specificCause(node, errors.at(-1)?.error, pod, now, operatorRef)
    const evidence: Evidence[] = [
      field(node, '.status.phase', phase),
      { kind: 'field', source: start.source, text: `in ${phase} since ${start.at}${start.exact ? '' : ' (read off what the phase created)'}`, at: start.at },
      ...errors.map((group) => ({
        kind: 'log' as const,
        source: `Reconciler error on ${group.kind}/${group.name}`,
        text: `${group.error}${group.count > 1 ? ` (x${group.count})` : ''}`,
        at: group.last,
      })),
      ...(explained ? warnings : events).slice(-8).map(eventEvidence),
      ...(pod?.metadata.deletionTimestamp ? [field(pod, '.metadata.deletionTimestamp', pod.metadata.deletionTimestamp)] : []),
      ...(explained || specific
        ? []
        : [{ kind: 'missing' as const, source: 'operator log and Events', text: `no operator error and no Warning Event since ${start.at} explains it` }]),
    ]
    return [
      {
        subject: refOf(node),
        severity: phase === 'Snapshotting' ? 'warning' : 'error',
        data: {
          phase,
          since: start.at,
          stuckForMs,
          thresholdMs,
          exact: start.exact,
          explained: explained || specific !== undefined,
          next: nextRead(node, phase, operator && `${operator.metadata.namespace}/${operator.metadata.name}`),
          ...(specific ? { specific: specific.detail, specificAction: specific.action } : {}),
        },
        evidence,
        since: start.at,
      },
    ]
  },
  summary: (d) => `stuck in phase ${d.phase} for ${d.exact ? '' : 'about '}${humanAge(d.stuckForMs)} (more than ${humanAge(d.thresholdMs)})`,
  cause: (d) =>
    d.specific
      ? `the node cannot leave ${d.phase}: ${d.specific}`
      : d.explained
        ? `the node cannot leave ${d.phase}: the operator errors and Warning Events since it began are the evidence`
        : `the node cannot leave ${d.phase}, and neither the operator log nor the Events say why`,
  action: (d) =>
    d.specificAction
      ? `${d.specificAction} The node leaves ${d.phase} at the next reconcile after.`
      : d.explained
        ? `Fix what the evidence names (the operator's error, the Warning Events); the node leaves ${d.phase} at the next reconcile. If it does not, read ${d.next}.`
        : `Read ${d.next}.`,
})
