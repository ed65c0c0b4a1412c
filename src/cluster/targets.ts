/** What we list per namespace that holds nodes, and cluster-wide: data, not code (troubleshoot's targets). */
export interface ListTarget {
  kind: string
  /** API path prefix; namespaced targets get /namespaces/{ns} inserted before the plural. */
  group: string
  plural: string
  namespaced: boolean
  /** A missing API (CRD not installed) is normal for optional kinds and is not reported as a failure. */
  optional?: boolean
  labelSelector?: string
  /** Only the objects the API server's field selector matches (involvedObject.kind=ChainNode). */
  fieldSelector?: string
  /** Only the objects' metadata (a PartialObjectMetadataList): a command that reads their annotations, not their data. */
  metadataOnly?: boolean
  /** Read instead when this list cannot be read (an older API that says the same). */
  fallback?: ListTarget
  /** Read only when a node in scope has this need; only such nodes' rules look at the list. */
  onlyFor?: NodeNeed
  /** One of the lists that find the operator's release (see ObjectReads in collect.ts). */
  operatorRelease?: boolean
}

/** What only some nodes need read: a remote signer (its Service, endpoints, StatefulSet, policies), snapshots, an owning set. */
export type NodeNeed = 'signer' | 'volume-snapshots' | 'nodeset'

const core = '/api/v1'
const apis = (groupVersion: string) => `/apis/${groupVersion}`

/** The ChainNodeSets of a namespace: listed with the nodes of a namespace or cluster scope, and for a node's owner. */
export const CHAINNODESETS: ListTarget = {
  kind: 'ChainNodeSet',
  group: apis('cosmopilot.voluzi.com/v1'),
  plural: 'chainnodesets',
  namespaced: true,
  optional: true,
}

export const NAMESPACE_TARGETS: ListTarget[] = [
  { kind: 'Pod', group: core, plural: 'pods', namespaced: true },
  { kind: 'Event', group: core, plural: 'events', namespaced: true },
  { kind: 'ConfigMap', group: core, plural: 'configmaps', namespaced: true },
  { kind: 'PersistentVolumeClaim', group: core, plural: 'persistentvolumeclaims', namespaced: true },
  { kind: 'Service', group: core, plural: 'services', namespaced: true, onlyFor: 'signer' },
  {
    kind: 'EndpointSlice',
    group: apis('discovery.k8s.io/v1'),
    plural: 'endpointslices',
    namespaced: true,
    optional: true,
    onlyFor: 'signer',
    fallback: { kind: 'Endpoints', group: core, plural: 'endpoints', namespaced: true },
  },
  { kind: 'StatefulSet', group: apis('apps/v1'), plural: 'statefulsets', namespaced: true, onlyFor: 'signer' },
  { kind: 'NetworkPolicy', group: apis('networking.k8s.io/v1'), plural: 'networkpolicies', namespaced: true, onlyFor: 'signer' },
  {
    kind: 'VolumeSnapshot',
    group: apis('snapshot.storage.k8s.io/v1'),
    plural: 'volumesnapshots',
    namespaced: true,
    optional: true,
    onlyFor: 'volume-snapshots',
  },
  { ...CHAINNODESETS, onlyFor: 'nodeset' },
]

/** On every object of the Helm chart, the operator's pods included (reference §7.1). */
export const OPERATOR_LABEL = 'app.kubernetes.io/name=cosmopilot'

export const CLUSTER_TARGETS: ListTarget[] = [
  { kind: 'StorageClass', group: apis('storage.k8s.io/v1'), plural: 'storageclasses', namespaced: false },
  {
    kind: 'VolumeSnapshotClass',
    group: apis('snapshot.storage.k8s.io/v1'),
    plural: 'volumesnapshotclasses',
    namespaced: false,
    optional: true,
    onlyFor: 'volume-snapshots',
  },
  // Which of the chart's classes exist decides why a Pod was refused for a missing one (priority-class-missing).
  { kind: 'PriorityClass', group: apis('scheduling.k8s.io/v1'), plural: 'priorityclasses', namespaced: false },
  { kind: 'ValidatingWebhookConfiguration', group: apis('admissionregistration.k8s.io/v1'), plural: 'validatingwebhookconfigurations', namespaced: false },
  { kind: 'Deployment', group: apis('apps/v1'), plural: 'deployments', namespaced: false, labelSelector: OPERATOR_LABEL, operatorRelease: true },
  // Listed with the Deployments so the operator's logs need not wait for a second round trip.
  { kind: 'Pod', group: core, plural: 'pods', namespaced: false, labelSelector: OPERATOR_LABEL, operatorRelease: true },
]

/** Read in each namespace where an operator release that reconciles a node in scope runs. */
export const OPERATOR_NAMESPACE_TARGETS: ListTarget[] = [
  { kind: 'Lease', group: apis('coordination.k8s.io/v1'), plural: 'leases', namespaced: true },
  { kind: 'Event', group: core, plural: 'events', namespaced: true },
  { kind: 'Certificate', group: apis('cert-manager.io/v1'), plural: 'certificates', namespaced: true, optional: true },
]

/** The operator's pods, read per namespace when a release was found by image because it lacks the chart's labels. */
export const OPERATOR_PODS: ListTarget = { kind: 'Pod', group: core, plural: 'pods', namespaced: true }

export function listPath(target: ListTarget, namespace?: string): string {
  const base = target.namespaced && namespace ? `${target.group}/namespaces/${namespace}/${target.plural}` : `${target.group}/${target.plural}`
  const labels = target.labelSelector ? `labelSelector=${encodeURIComponent(target.labelSelector)}&` : ''
  const fields = target.fieldSelector ? `fieldSelector=${encodeURIComponent(target.fieldSelector)}&` : ''
  return `${base}?${labels}${fields}${FROM_CACHE}`
}

/** The Accept header of a target's list: its metadata alone when that is all that is read, else the whole objects. */
export const listAccept = (target: ListTarget) =>
  target.metadataOnly ? 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json' : 'application/json'

/**
 * resourceVersion=0: the API server answers from its watch cache instead of a quorum read of etcd,
 * a few times faster for a fleet's thousands of Pods; the answer may trail etcd by moments, which a
 * diagnosis taken over seconds cannot tell apart anyway.
 */
export const FROM_CACHE = 'resourceVersion=0'
