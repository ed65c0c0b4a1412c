import { refOf } from '../snapshot/index.js'
import { allContainerStatuses } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { operatorLogsAbout } from '../analysis/operator-logs.js'
import { byReason, matchingEvents, eventCount } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { annotation } from '../snapshot/operator.js'
import type { Pod } from '../snapshot/kinds.js'

/** A corrupted snapshot is deleted and retaken with no Event saying so: only the operator's log line tells. */
const CORRUPTED = /Data is corrupted/
const CHECK_STARTED = /^Starting snapshot (\S+) integrity check/

/** The snapshot a check Pod verifies: its `volume-snapshot` label, else its name `<snapshot>-ichk-<suffix>`. */
function checkedSnapshot(pod: Pod): string | undefined {
  return pod.metadata.labels?.['volume-snapshot'] ?? /^(.+)-ichk(?:-[a-z0-9]+)?$/.exec(pod.metadata.name)?.[1]
}

export default defineRule<{ corrupted: number; checks: number; oomKilled: boolean }>({
  id: 'snapshot-verify-failing',
  title: 'Snapshot integrity check fails repeatedly',
  severity: 'warning',
  specRow: 'Snapshot integrity check fails repeatedly',
  logs: ['operator'],
  check({ index, node }) {
    if (!node.spec?.persistence?.snapshots?.verify) return []
    const snapshots = index.volumeSnapshotsOf(node)
    const corrupted = snapshots.filter((snap) => snap.metadata.annotations?.[annotation('snapshot-integrity-status')] === 'corrupted')
    const checkEvents = matchingEvents(index, node, byReason('IntegrityCheckStart'))
    const checks = checkEvents.reduce((sum, e) => sum + eventCount(e), 0)
    // Set nodes name their snapshots `<set>-<group>-<ts>`, not after the node: match the node's own snapshot names.
    const snapshotNames = new Set([
      ...snapshots.map((snap) => snap.metadata.name),
      ...checkEvents.flatMap((e) => CHECK_STARTED.exec(e.message ?? '')?.[1] ?? []),
    ])
    const checkPods = index
      .list('Pod', node.metadata.namespace)
      .filter((pod) => /-ichk(-|$)/.test(pod.metadata.name) && snapshotNames.has(checkedSnapshot(pod) ?? ''))
    const failedPods = checkPods.filter(
      (pod) => pod.status?.phase === 'Failed' || allContainerStatuses(pod).some((s) => (s.state?.terminated?.exitCode ?? 0) !== 0),
    )
    const oomKilled = checkPods.some((pod) =>
      allContainerStatuses(pod).some((s) => [s.state?.terminated?.reason, s.lastState?.terminated?.reason].includes('OOMKilled')),
    )
    const corruptedLogged = operatorLogsAbout(index, node, CORRUPTED, 10, 50, { anyLevel: true })
    const failures = Math.max(corrupted.length, corruptedLogged.length)
    // SnapshotDeleted only reports retention; a corrupted snapshot goes without an Event, so it proves nothing here.
    if (failures === 0 && failedPods.length === 0) return []
    const evidence: Evidence[] = [
      ...corrupted.map((snap) => field(snap, `annotations["${annotation('snapshot-integrity-status')}"]`, 'corrupted')),
      ...checkEvents.map(eventEvidence),
      ...corruptedLogged,
      ...failedPods.flatMap((pod) =>
        allContainerStatuses(pod)
          .filter((s) => s.state?.terminated)
          .map((s) => field(pod, `container ${s.name} terminated`, `${s.state?.terminated?.reason ?? 'Error'} (exit ${s.state?.terminated?.exitCode})`)),
      ),
      ...failedPods.flatMap((pod) => matchingEvents(index, pod, (e) => e.type === 'Warning').map(eventEvidence)),
    ]
    return [{ subject: refOf(node), data: { corrupted: failures, checks, oomKilled }, evidence }]
  },
  summary: (d) => `snapshot integrity check failing (${d.corrupted} corrupted, ${d.checks} checks started)`,
  cause: (d) =>
    d.oomKilled
      ? 'the verification Pod ran out of memory: too few resources for the verification Pod'
      : 'corrupted data in the snapshots, or too few resources for the verification Pod',
  action: (d) =>
    d.oomKilled
      ? 'Give the integrity check more memory (.spec.persistence.snapshots resources) and let a new snapshot be verified.'
      : 'Check the node data for corruption and the resources of the verification Pod (.spec.persistence.snapshots resources); failed snapshots are deleted and retaken.',
})
