import { humanAge } from '../util/duration.js'
import { refOf } from '../snapshot/index.js'
import { defineRule, type Evidence, type Severity } from '../engine/define-rule.js'
import { field } from '../engine/rule-helpers.js'
import { causeAction, classifyReconcileError, type ReconcileCause } from '../analysis/reconcile-causes.js'
import { groupErrors, reconcileHistory } from '../analysis/reconcile-log.js'

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
}

export default defineRule<Data>({
  id: 'reconcile-failing',
  title: "The operator's reconciles of the node fail",
  severity: 'error',
  specRow: 'Issue 20: the operator logs `Reconciler error` for the node (or its ChainNodeSet) and records no Event',
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
    const keepsFailing = history.failingCount >= 2 && failingForMs >= KEEPS_FAILING_MS && now - Date.parse(latest.at) <= STILL_FAILING_MS
    const severity: Severity = keepsFailing ? 'error' : 'warning'
    const error = latest.error ?? '(no error text)'
    const match = classifyReconcileError(error)
    const evidence: Evidence[] = [
      field(node, '.status.phase', node.status?.phase),
      ...groupErrors(history.failing).map((group) => ({
        kind: 'log' as const,
        source: `Reconciler error on ${group.kind}/${group.name}`,
        text: `${group.error}${group.count > 1 ? ` (x${group.count} over ${humanAge(Date.parse(group.last) - Date.parse(group.first))})` : ''}`,
        at: group.last,
      })),
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
      ? `the operator ${d.operator} returns this error from every reconcile and records no Event for it`
      : `the operator ${d.operator} cannot reconcile the node: ${CAUSES[d.cause]}`,
  action: (d) => causeAction({ cause: d.cause, object: d.causeObject }, { namespace: d.namespace, operator: d.operator, node: d.node }),
})

const CAUSES: Record<Exclude<ReconcileCause, 'unknown'>, string> = {
  'priority-class': 'a Pod it creates names a PriorityClass that does not exist',
  quota: 'a ResourceQuota of the namespace refuses the Pods it creates',
  'pod-security': "the namespace's Pod Security level refuses the Pods it creates",
  'admission-denied': 'an admission policy refuses what it creates',
  webhook: 'an admission webhook the API server calls cannot be reached or trusted',
  rbac: 'its service account is not allowed an operation it needs',
  'secret-missing': 'a Secret the node refers to does not exist',
  'configmap-missing': 'a ConfigMap the node refers to does not exist',
  'snapshot-missing': 'the VolumeSnapshot to restore from does not exist',
  genesis: 'it cannot obtain the genesis',
  'crd-missing': 'a custom resource kind it needs is not installed',
  'invalid-spec': 'the spec is invalid',
  'start-timeout': 'the node Pod it created did not start its main container in time',
}
