import type { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject } from '../snapshot/types.js'
import { sortEvents } from '../snapshot/events.js'
import type { ChainNode, KubeEvent } from '../snapshot/kinds.js'

const KIND_ALIASES: Record<string, string> = {
  pod: 'Pod',
  po: 'Pod',
  pvc: 'PersistentVolumeClaim',
  persistentvolumeclaim: 'PersistentVolumeClaim',
  chainnode: 'ChainNode',
  chainnodeset: 'ChainNodeSet',
  volumesnapshot: 'VolumeSnapshot',
  vs: 'VolumeSnapshot',
  statefulset: 'StatefulSet',
  sts: 'StatefulSet',
  service: 'Service',
  svc: 'Service',
}

/** Objects whose Events belong to a node: the ChainNode, its Pod, PVCs, VolumeSnapshots and ChainNodeSet. */
export function relatedObjects(index: SnapshotIndex, node: ChainNode): KubeObject[] {
  const ns = node.metadata.namespace
  const pvcs = index
    .list('PersistentVolumeClaim', ns)
    .filter((pvc) => pvc.metadata.name === node.metadata.name || pvc.metadata.name.startsWith(`${node.metadata.name}-`))
  const set = index.ownerSetOf(node)
  return [node, index.podOf(node), ...pvcs, ...index.volumeSnapshotsOf(node), ...(set ? [set] : [])].filter((obj) => obj !== undefined)
}

/** Events for every node in the snapshot (or one related object), deduplicated, newest last. */
export function relatedEvents(index: SnapshotIndex, forObject?: string): KubeEvent[] {
  const objects = new Map<string, KubeObject>()
  for (const node of index.chainNodes())
    for (const obj of relatedObjects(index, node)) objects.set(`${obj.kind}/${obj.metadata.namespace}/${obj.metadata.name}`, obj)
  let chosen = [...objects.values()]
  if (forObject) {
    const [kind, name] = forObject.split('/')
    const wanted = KIND_ALIASES[kind.toLowerCase()] ?? kind
    chosen = chosen.filter((obj) => obj.kind.toLowerCase() === wanted.toLowerCase() && obj.metadata.name === name)
  }
  return sortEvents([...new Set(chosen.flatMap((obj) => index.eventsFor(obj)))])
}
