import { humanAge } from '../util/duration.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence, type Severity } from '../engine/define-rule.js'
import { causeAction, causeWords, classifyReconcileError, REFUSALS, type QuotaResource, type ReconcileCause } from '../analysis/reconcile-causes.js'
import { groupErrors, reconcileHistory } from '../analysis/reconcile-log.js'
import { operatorSaid, sameFailure } from './vocabulary/operator-said.js'
import type { KubeObject } from '../snapshot/types.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { field, eventEvidence } from '../engine/evidence.js'
import type { KubeEvent } from '../snapshot/kinds.js'
import { eventText } from '../snapshot/events.js'

/** controller-runtime retries a failing object with a backoff capped at 1000 s: a live failure repeats within this. */
const STILL_FAILING_MS = 20 * 60_000
/** Failing this long, and more than once, is no passing conflict. */
const KEEPS_FAILING_MS = 2 * 60_000

interface Data {
  operator: string
  namespace: string
  node: string
  /** The object whose reconcile fails: the node, or its ChainNodeSet. */
  object: string
  error: string
  count: number
  failingForMs: number
  cause: ReconcileCause
  causeObject?: string
  causeResources?: string[]
  /** What the error says specifically (the quota's used and hard, the LimitRange bound, the principal denied…). */
  causeDetail?: string
  causeFacts?: Record<string, string>
  causeQuota?: QuotaResource[]
  /** The Warning Event the operator recorded with the same failure, if any (reason). */
  eventReason?: string
  /** Whether the node names a genesis source (.spec.genesis), or creates a new genesis. */
  genesisSource: boolean
}

/** A Warning Event on the node or its set that carries this error. */
function eventFor(index: SnapshotIndex, objects: KubeObject[], error: string): KubeEvent | undefined {
  return objects
    .flatMap((obj) => index.eventsFor(obj))
    .filter((event) => event.type === 'Warning' && sameFailure(eventText(event), error))
    .at(-1)
}

export default defineRule<Data>({
  id: 'reconcile-failing',
  title: "The operator's reconciles of the node fail",
  severity: 'error',
  severityNote:
    'when the node keeps failing (at least two failures over two minutes or more, the latest within 20 minutes; any two recent failures when the error is a refusal no retry can pass: a quota, a LimitRange, a missing object, a denied permission); warning for a single or an older failure',
  specRow: 'Issue 20: the operator logs `Reconciler error` for the node (or its ChainNodeSet), with or without a Warning Event',
  // A refused reconcile is why the node cannot leave its phase.
  explains: ['phase-stuck'],
  logs: ['operator'],
  // A specific rule that fires explains the same failure better.
  suppressedBy: [
    'priority-class-missing',
    'legacy-signing-refused',
    'restore-not-starting',
    'pvc-not-growing',
    'webhook-certificates',
    'snapshot-verify-failing',
  ],
  check({ index, node, now }) {
    const operator = index.operatorFor(node)
    if (!operator) return []
    const history = reconcileHistory(index, node)
    if (!history.latestFailed || history.onlyConflicts) return []
    const latest = history.failing.at(-1)!
    const failingForMs = now - Date.parse(history.failingSince!)
    const error = latest.error ?? '(no error text)'
    const match = classifyReconcileError(error)
    // A refusal fails the same way at every retry: the real manager's backoff repeats it within seconds.
    const keepsFailing =
      history.failingCount >= 2 && (failingForMs >= KEEPS_FAILING_MS || REFUSALS.has(match.cause)) && now - Date.parse(latest.at) <= STILL_FAILING_MS
    const severity: Severity = keepsFailing ? 'error' : 'warning'
    const set = index.ownerSetOf(node)
    const objects = set ? [node, set] : [node]
    // What the catalogue knows is reported by its own rule (spec-invalid, genesis-unavailable…), with its cause.
    const knownElsewhere = objects
      .flatMap((obj) => operatorSaid(index, obj, now))
      .some((hit) => hit.entry.rule !== 'reconcile-failing' && (hit.entry.channel === 'reconcile-error' ? hit.text === error : sameFailure(hit.text, error)))
    if (knownElsewhere) return []
    const event = eventFor(index, objects, error)
    const evidence: Evidence[] = [
      field(node, '.status.phase', node.status?.phase),
      ...groupErrors(history.failing).map((group) => ({
        kind: 'log' as const,
        source: `Reconciler error on ${group.kind}/${group.name}`,
        text: `${group.error}${group.count > 1 ? ` (x${group.count} over ${humanAge(Date.parse(group.last) - Date.parse(group.first))})` : ''}`,
        at: group.last,
      })),
      ...(event ? [eventEvidence(event)] : []),
    ]
    return [
      {
        subject: refOf(node),
        severity,
        data: {
          operator: `${operator.metadata.namespace}/${operator.metadata.name}`,
          namespace: node.metadata.namespace ?? '',
          node: node.metadata.name,
          object: `${latest.kind}/${latest.name}`,
          error,
          count: history.failingCount,
          failingForMs,
          cause: match.cause,
          causeObject: match.object,
          ...(match.resources ? { causeResources: match.resources } : {}),
          ...(match.detail ? { causeDetail: match.detail } : {}),
          ...(match.facts ? { causeFacts: match.facts } : {}),
          ...(match.quota ? { causeQuota: match.quota } : {}),
          ...(event ? { eventReason: event.reason } : {}),
          genesisSource: node.spec?.genesis !== undefined && node.spec?.genesis !== null,
        },
        evidence,
        // Each evidence line is dated by its last repeat; the run of failures began earlier.
        since: history.failingSince,
      },
    ]
  },
  summary: (d) => `reconcile of ${d.object} fails${d.count > 1 ? ` (x${d.count} over ${humanAge(d.failingForMs)})` : ''}: ${d.error}`,
  cause: (d) =>
    d.cause === 'unknown'
      ? `the operator ${d.operator} returns this error from every reconcile${d.eventReason ? ` (and records it as Warning Event ${d.eventReason})` : ' and records no Event for it'}`
      : `the operator ${d.operator} cannot reconcile the node: ${d.cause === 'genesis' && !d.genesisSource ? 'it cannot create the new genesis' : causeWords(d.cause, d.causeResources)}${d.causeDetail ? ` (${d.causeDetail})` : ''}`,
  action: (d) =>
    causeAction(
      { cause: d.cause, object: d.causeObject, resources: d.causeResources, facts: d.causeFacts, detail: d.causeDetail },
      { namespace: d.namespace, operator: d.operator, node: d.node, genesisSource: d.genesisSource },
    ),
})
