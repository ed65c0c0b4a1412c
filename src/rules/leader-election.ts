import { refOf } from '../snapshot/index.js'
import { podReady } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { operatorLogs } from '../analysis/operator-logs.js'
import { ageMs } from '../util/duration.js'
import { field } from '../engine/evidence.js'
import { operatorLeaseName, runsLeaderElection } from '../snapshot/operator.js'

/** controller-runtime's default lease duration; a holder that has not renewed for twice that is gone. */
const STALE_AFTER_MS = 2 * 15_000

type Problem = 'no-lease' | 'holder-gone' | 'stale' | 'no-holder'

export default defineRule<{ operator: string; lease: string; problem: Problem; holder?: string; replicas: number }>({
  id: 'leader-election',
  title: 'No operator replica holds the leader lease',
  severity: 'error',
  specRow: 'Reconciles stop with several replicas',
  // Without a leader nothing is reconciled: the nodes keep whatever phase they had. A reconcile that ran and
  // failed (reconcile-failing) names its own cause and stays an incident of its own.
  explains: ['phase-stuck'],
  logs: ['operator'],
  // A manager that cannot start (no webhook certificates) never takes the lease.
  suppressedBy: ['webhook-certificates'],
  check({ index, node, now }) {
    const operator = index.operatorFor(node)
    if (!operator) return []
    // A single manager without leader election holds no Lease, and needs none.
    if (!runsLeaderElection(operator)) return []
    const name = operatorLeaseName(operator)
    const lease = index.get('Lease', operator.metadata.namespace, name)
    const pods = index.operatorPods(operator)
    const holder: string | undefined = lease?.spec?.holderIdentity
    const holderPod = holder ? pods.find((pod) => holder.startsWith(pod.metadata.name)) : undefined
    const renewed = lease?.spec?.renewTime ?? lease?.spec?.acquireTime
    const durationMs = (lease?.spec?.leaseDurationSeconds ?? 15) * 1000
    let problem: Problem | undefined
    if (!lease) problem = pods.length > 0 && index.snapshot.collectionErrors.every((e) => !/leases/.test(e.what)) ? 'no-lease' : undefined
    else if (!holder) problem = 'no-holder'
    else if (!holderPod) problem = 'holder-gone'
    else if (ageMs(now, renewed) > Math.max(STALE_AFTER_MS, 2 * durationMs)) problem = 'stale'
    if (!problem) return []
    const evidence: Evidence[] = [
      lease ? field(lease, '.spec.holderIdentity', holder) : { kind: 'missing', source: `Lease ${operator.metadata.namespace}/${name}`, text: 'no such Lease' },
      ...(lease ? [field(lease, '.spec.renewTime', renewed)] : []),
      ...pods.map((pod) => field(pod, 'Ready', podReady(pod))),
      // Routine lines count here: who acquired or failed to acquire the lease is the story.
      ...operatorLogs(index, operator, /leader|lease/i, 6, { anyLevel: true }),
    ]
    return [
      {
        subject: refOf(operator),
        data: { operator: `${operator.metadata.namespace}/${operator.metadata.name}`, lease: name, problem, holder, replicas: pods.length },
        evidence,
        // The leader's last renewal, not the log lines of how it took the lease (kept as context).
        ...(problem === 'stale' ? { since: renewed } : {}),
      },
    ]
  },
  summary: (d) =>
    ({
      'no-lease': `operator ${d.operator}: leader Lease ${d.lease} does not exist`,
      'no-holder': `operator ${d.operator}: nobody holds leader Lease ${d.lease}`,
      'holder-gone': `operator ${d.operator}: Lease ${d.lease} is held by ${d.holder}, which is not a running replica`,
      stale: `operator ${d.operator}: the leader ${d.holder} stopped renewing Lease ${d.lease}`,
    })[d.problem],
  cause: (d) => `with ${d.replicas} replica(s), only the holder of the leader Lease reconciles; without a live leader reconciles stop`,
  action: (d) => {
    const [namespace, name] = d.operator.split('/')
    return `Check that a leader holds the lease (kubectl get lease ${d.lease} -n ${namespace}) and inspect the logs of all replicas (kubectl logs -n ${namespace} deploy/${name} -c manager, and each Pod of the Deployment).`
  },
})
