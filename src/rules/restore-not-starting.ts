import { refOf } from '../snapshot/index.js'
import type { KubeObject } from '../snapshot/types.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { reconcileErrorEvidence } from '../analysis/reconcile-log.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'

/** The operator reads the source snapshot before creating the PVC; a failed read is only logged. */
const SNAPSHOT_READ_FAILED = /volumesnapshots?(?:\.snapshot\.storage\.k8s\.io)? "[^"]+" not found|no matches for kind "VolumeSnapshot"/

/** A storage class can restore from a VolumeSnapshot when a VolumeSnapshotClass exists for its CSI driver. */
export function supportsSnapshots(storageClass: KubeObject | undefined, snapshotClasses: KubeObject[]): boolean {
  if (!storageClass) return false
  return snapshotClasses.some((cls) => cls.driver === storageClass.provisioner)
}

export default defineRule<{ source: string; sourceMissing: boolean; storageClass?: string; noSnapshotSupport: boolean }>({
  id: 'restore-not-starting',
  title: 'Restore from snapshot does not start',
  severity: 'error',
  specRow: 'Restore does not start',
  logs: ['operator'],
  check({ index, node, pod }) {
    const source: string | undefined = node.spec?.persistence?.restoreFromSnapshot?.name
    if (!source || (pod && pod.status?.phase === 'Running')) return []
    const ns = node.metadata.namespace
    const snapshot = index.get('VolumeSnapshot', ns, source)
    const pvc = index.dataPvcOf(node)
    // restoreFromSnapshot stays in the spec for good: a Bound PVC means the restore happened, even if retention
    // has deleted the source since. (data-initialized=true proves nothing: it is set when the PVC is created.)
    if (pvc?.status?.phase === 'Bound') return []
    const storageClassName: string | undefined = pvc ? pvc.spec?.storageClassName : node.spec?.persistence?.storageClass
    const storageClass = index.storageClassOf(pvc ?? { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: '' }, spec: { storageClassName } })
    const classListFailed = index.snapshot.collectionErrors.some((e) => /storageclasses|volumesnapshotclasses/.test(e.what))
    const noSnapshotSupport = !classListFailed && !supportsSnapshots(storageClass, index.list('VolumeSnapshotClass'))
    const snapshotListFailed = index.snapshot.collectionErrors.some((e) => /volumesnapshots/.test(e.what))
    const logged = reconcileErrorEvidence(index, node, SNAPSHOT_READ_FAILED)
    // Without the list, the operator's own failed read still says the source is missing.
    const sourceMissing = !snapshot && (!snapshotListFailed || logged.length > 0)
    if (!sourceMissing && !noSnapshotSupport && pvc?.status?.phase !== 'Pending') return []
    const evidence: Evidence[] = [
      field(node, '.spec.persistence.restoreFromSnapshot.name', source),
      ...(sourceMissing ? [{ kind: 'missing' as const, source: `VolumeSnapshot ${ns}/${source}`, text: 'the source snapshot does not exist' }] : []),
      ...(pvc ? [field(pvc, '.status.phase', pvc.status?.phase)] : []),
      ...(storageClass ? [field(storageClass, '.provisioner', storageClass.provisioner)] : []),
      ...(noSnapshotSupport
        ? [
            {
              kind: 'missing' as const,
              source: 'VolumeSnapshotClass',
              text: `no VolumeSnapshotClass for driver ${storageClass?.provisioner ?? '(no storage class)'}`,
            },
          ]
        : []),
      ...matchingEvents(index, pvc, (e) => e.type === 'Warning').map(eventEvidence),
      ...logged,
    ]
    return [
      { subject: refOf(node), data: { source, sourceMissing, storageClass: storageClass?.metadata.name ?? storageClassName, noSnapshotSupport }, evidence },
    ]
  },
  summary: (d) => `restore from snapshot ${d.source} does not start`,
  cause: (d) =>
    [
      d.sourceMissing ? `the source snapshot ${d.source} is missing` : '',
      d.noSnapshotSupport ? `storage class ${d.storageClass ?? '(default)'} lacks snapshot data source support` : '',
    ]
      .filter(Boolean)
      .join('; ') || 'the data volume is not provisioned from the snapshot',
  action: (d) =>
    [
      d.sourceMissing ? 'Make sure the source snapshot (or tarball) exists in the node namespace' : '',
      d.noSnapshotSupport ? 'use a storage class whose CSI driver supports the snapshot data source (a VolumeSnapshotClass exists for it)' : '',
    ]
      .filter(Boolean)
      .join('; ') + '.',
})
