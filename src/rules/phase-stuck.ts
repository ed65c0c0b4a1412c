import { humanAge } from '../util/duration.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { phaseBudgetMs, phaseStart, STUCK_PHASES, whyPhaseHolds } from '../analysis/phase-since.js'
import { reconcileHistory } from '../analysis/reconcile-log.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { eventTime } from '../snapshot/events.js'
import type { ChainNode } from '../snapshot/kinds.js'

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
    if (!phase || !STUCK_PHASES.includes(phase)) return []
    const thresholdMs = settings?.phaseTimeoutsMs?.[phase] ?? phaseBudgetMs(node, phase)
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
    const specific = whyPhaseHolds(node, errors.at(-1)?.error, pod, now, operatorRef)
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
