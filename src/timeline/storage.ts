import type { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject, ObjectRef } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { annotation } from '../snapshot/operator.js'
import type { ChainNode } from '../snapshot/kinds.js'

const ref = (obj: KubeObject): ObjectRef => ({ kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name })

/** PVC creation, restores and resizes, and the node's VolumeSnapshots from creation to ready, verified or failed. */
export function storageEntries(index: SnapshotIndex, node: ChainNode, now: string): RawEntry[] {
  const out: RawEntry[] = []
  const push = (obj: KubeObject, at: string | undefined, kind: string, level: RawEntry['level'], text: string) => {
    const time = isoTime(at)
    if (time) out.push({ at: time, source: 'storage', kind, subject: ref(obj), level, text })
  }
  const pvc = index.dataPvcOf(node)
  if (pvc) {
    const from = pvc.spec?.dataSource ?? pvc.spec?.dataSourceRef
    push(
      pvc,
      pvc.metadata.creationTimestamp,
      'pvc-created',
      'normal',
      `PVC created${from?.name ? `, restored from ${from.kind ?? 'VolumeSnapshot'} ${from.name}` : ''}`,
    )
    for (const condition of pvc.status?.conditions ?? []) {
      push(
        pvc,
        condition.lastTransitionTime ?? condition.lastProbeTime ?? undefined,
        `condition/${condition.type}`,
        'info',
        `PVC ${condition.type}=${condition.status}${condition.message ? `: ${condition.message}` : ''}`,
      )
    }
    const requested = pvc.spec?.resources?.requests?.storage
    const capacity = pvc.status?.capacity?.storage
    if (requested && capacity && requested !== capacity)
      push(pvc, now, 'pvc-resize', 'info', `PVC requests ${requested}, capacity is ${capacity} (as of collection)`)
  }
  for (const snap of index.volumeSnapshotsOf(node)) {
    const height = snap.metadata.annotations?.[annotation('data-height')]
    push(snap, snap.metadata.creationTimestamp, 'snapshot-created', 'normal', `VolumeSnapshot created${height ? ` at height ${height}` : ''}`)
    if (snap.status?.readyToUse) push(snap, snap.status?.creationTime, 'snapshot-ready', 'normal', 'VolumeSnapshot taken (readyToUse)')
    const error = snap.status?.error
    if (error) push(snap, error.time ?? now, 'snapshot-error', 'error', `VolumeSnapshot failed: ${error.message ?? '<no message>'}`)
    const integrity = snap.metadata.annotations?.[annotation('snapshot-integrity-status')]
    if (integrity)
      push(snap, now, 'snapshot-integrity', integrity === 'corrupted' ? 'error' : 'info', `integrity check ${integrity} (annotation, as of collection)`)
  }
  return out
}
