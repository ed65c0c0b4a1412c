/**
 * The Kubernetes objects we read, as typed views: each kind lists the fields the rules, renderers and probes
 * read, once, as a shape. The shape is checked when a bundle is read (bundle-read.ts leaves out an object that
 * fails it, with an error saying why), so the type is true of a stranger's bundle too; what the API server
 * writes conforms already (test/e2e/collection.e2e.test.ts holds a live collect to these shapes). Fields not
 * listed stay reachable as `unknown` (KubeObject's index signature) and must be checked where read.
 */
import type { KubeObject } from './types.js'
import { anything, boolean, kubeFields as object, list, mapOf, nullable, number, numberOrString, string, type Shape, type ShapeOf } from './shape.js'

/** A time Go holds by value (metav1.Time, MicroTime): written as null when unset, where a pointer would be left out. */
const goTime = nullable(string)
const condition = object({ type: string, 'status?': string, 'reason?': string, 'message?': string, 'lastTransitionTime?': goTime, 'lastProbeTime?': goTime })
const envVar = object({ name: string, 'value?': string })
const container = object({
  name: string,
  'image?': string,
  'command?': list(string),
  'args?': list(string),
  'env?': list(envVar),
  'ports?': list(object({ 'name?': string, containerPort: number })),
  'securityContext?': object({ 'runAsUser?': number, 'runAsNonRoot?': boolean }),
  'restartPolicy?': string,
})
const containerState = object({
  'waiting?': object({ 'reason?': string, 'message?': string }),
  'running?': object({ 'startedAt?': goTime }),
  'terminated?': object({ 'reason?': string, 'message?': string, 'exitCode?': number, 'startedAt?': goTime, 'finishedAt?': goTime }),
})
const containerStatus = object({
  name: string,
  'restartCount?': number,
  'ready?': boolean,
  'started?': boolean,
  'image?': string,
  'imageID?': string,
  'state?': containerState,
  'lastState?': containerState,
})
const podSpec = object({
  'containers?': list(container),
  'initContainers?': list(container),
  'nodeName?': string,
  'priorityClassName?': string,
  'imagePullSecrets?': list(object({ 'name?': string })),
  'securityContext?': object({ 'runAsUser?': number, 'runAsNonRoot?': boolean }),
})

export const podShape = object({
  'spec?': podSpec,
  'status?': object({
    'phase?': string,
    'reason?': string,
    'message?': string,
    'hostIP?': string,
    'podIP?': string,
    'startTime?': string,
    'conditions?': list(condition),
    'containerStatuses?': list(containerStatus),
    'initContainerStatuses?': list(containerStatus),
  }),
})

const involved = object({ 'kind?': string, 'name?': string, 'namespace?': string, 'uid?': string, 'fieldPath?': string })
export const eventShape = object({
  'reason?': string,
  'message?': string,
  'note?': string,
  'type?': string,
  'count?': number,
  'firstTimestamp?': goTime,
  'lastTimestamp?': goTime,
  'eventTime?': goTime,
  'series?': object({ 'count?': number, 'lastObservedTime?': goTime }),
  'involvedObject?': involved,
  'regarding?': involved,
  'source?': object({ 'component?': string, 'host?': string }),
  'reportingController?': string,
  'reportingComponent?': string,
})

const upgrade = object({ 'height?': number, 'image?': string, 'status?': string, 'source?': string })
export const chainNodeShape = object({
  'spec?': object({
    'app?': object({ 'app?': string, 'image?': string, 'version?': string, 'upgrades?': list(upgrade) }),
    'genesis?': object({
      'url?': string,
      'configMap?': string,
      'genesisSHA256?': string,
      'chainID?': string,
      'fromNodeRPC?': object({ 'hostname?': string, 'port?': number, 'secure?': boolean }),
    }),
    'config?': object({
      'blockThreshold?': string,
      'ignoreSyncing?': boolean,
      'startupTime?': string,
      'imagePullSecrets?': list(object({ 'name?': string })),
      'stateSync?': object({ 'snapshotInterval?': number }),
    }),
    'persistence?': object({
      'size?': string,
      'storageClass?': string,
      'autoResize?': boolean,
      'autoResizeThreshold?': number,
      'autoResizeMaxSize?': string,
      'initTimeout?': string,
      'additionalInitCommands?': list(anything),
      'restoreFromSnapshot?': object({ 'name?': string }),
      'snapshots?': object({ 'verify?': boolean, 'exportTarball?': anything }),
    }),
    'validator?': object({
      'privateKeySecret?': string,
      'init?': object({ 'chainID?': string, 'chainNodeAccounts?': list(anything) }),
      'createValidator?': anything,
      'tmKMS?': object({ 'provider?': object({ 'hashicorp?': object({ 'autoRenewToken?': boolean, 'uploadGenerated?': boolean }) }) }),
    }),
    'stateSyncRestore?': boolean,
    'expose?': object({ 'service?': anything }),
    'vpa?': object({ 'memory?': object({ 'min?': string, 'max?': string }) }),
  }),
  'status?': object({
    'phase?': string,
    'chainID?': string,
    'pubKey?': string,
    'validatorAddress?': string,
    'validatorStatus?': string,
    'jailed?': boolean,
    'dataUsage?': string,
    'latestHeight?': number,
    'upgrades?': list(upgrade),
    'conditions?': list(condition),
  }),
})

export const chainNodeSetShape = object({
  'spec?': object({
    'app?': object({ 'app?': string, 'image?': string, 'version?': string, 'upgrades?': list(upgrade) }),
    'nodes?': list(object({ 'name?': string, 'instances?': number })),
    'validator?': anything,
  }),
  'status?': object({ 'phase?': string, 'chainID?': string, 'latestHeight?': number, 'upgrades?': list(upgrade), 'conditions?': list(condition) }),
})

export const leaseShape = object({
  'spec?': object({
    'holderIdentity?': string,
    'renewTime?': string,
    'acquireTime?': string,
    'leaseDurationSeconds?': number,
    'leaseTransitions?': number,
  }),
})

export const persistentVolumeClaimShape = object({
  'spec?': object({
    'storageClassName?': string,
    'resources?': object({ 'requests?': object({ 'storage?': string }) }),
    'dataSource?': object({ 'kind?': string, 'name?': string }),
    'dataSourceRef?': object({ 'kind?': string, 'name?': string }),
  }),
  'status?': object({ 'phase?': string, 'capacity?': object({ 'storage?': string }), 'conditions?': list(condition) }),
})

export const configMapShape = object({ 'data?': mapOf(string) })

const podTemplate = object({ 'metadata?': object({ 'labels?': mapOf(string), 'annotations?': mapOf(string) }), 'spec?': podSpec })
export const workloadShape = object({
  'spec?': object({ 'replicas?': number, 'selector?': object({ 'matchLabels?': mapOf(string) }), 'template?': podTemplate }),
  'status?': object({ 'replicas?': number, 'readyReplicas?': number, 'conditions?': list(condition) }),
})

const labelSelector = object({
  'matchLabels?': mapOf(string),
  'matchExpressions?': list(object({ key: string, operator: string, 'values?': list(string) })),
})
const targetRef = object({ 'kind?': string, 'name?': string })

export const networkPolicyShape = object({
  'spec?': object({
    'podSelector?': labelSelector,
    'policyTypes?': list(string),
    'ingress?': list(
      object({
        'ports?': list(object({ 'port?': numberOrString, 'endPort?': number, 'protocol?': string })),
        'from?': list(object({ 'podSelector?': labelSelector, 'ipBlock?': anything, 'namespaceSelector?': anything })),
      }),
    ),
  }),
})

const endpointAddress = object({ ip: string, 'targetRef?': targetRef })
export const endpointsShape = object({ 'subsets?': list(object({ 'addresses?': list(endpointAddress), 'notReadyAddresses?': list(endpointAddress) })) })
export const endpointSliceShape = object({ 'endpoints?': nullable(list(object({ 'addresses?': list(string), 'targetRef?': targetRef }))) })

export const volumeSnapshotShape = object({
  'spec?': object({ 'source?': object({ 'persistentVolumeClaimName?': string }) }),
  'status?': object({ 'readyToUse?': boolean, 'creationTime?': string, 'error?': object({ 'message?': string, 'time?': string }) }),
})

const webhookService = object({ 'name?': string, 'namespace?': string })
export const webhookConfigurationShape = object({
  'webhooks?': list(object({ 'name?': string, 'clientConfig?': object({ 'url?': string, 'service?': webhookService, 'caBundle?': string }) })),
})
export const storageClassShape = object({ 'provisioner?': string, 'allowVolumeExpansion?': boolean })
export const volumeSnapshotClassShape = object({ 'driver?': string })

/** What each kind we read declares; other kinds are plain KubeObjects. */
export const KIND_SHAPES = {
  ChainNode: chainNodeShape,
  ChainNodeSet: chainNodeSetShape,
  Pod: podShape,
  Event: eventShape,
  Lease: leaseShape,
  PersistentVolumeClaim: persistentVolumeClaimShape,
  ConfigMap: configMapShape,
  Deployment: workloadShape,
  StatefulSet: workloadShape,
  NetworkPolicy: networkPolicyShape,
  Endpoints: endpointsShape,
  EndpointSlice: endpointSliceShape,
  VolumeSnapshot: volumeSnapshotShape,
  ValidatingWebhookConfiguration: webhookConfigurationShape,
  StorageClass: storageClassShape,
  VolumeSnapshotClass: volumeSnapshotClassShape,
} satisfies Record<string, Shape<unknown>>

/** A kind's view: its own kind name (so a KubeObject of another kind is not taken for it) and its declared fields. */
type View<Kind extends string, S> = KubeObject & { kind: Kind } & ShapeOf<S>

// Interfaces, not aliases, so that a type error names the view (ChainNode), not its expansion.
/* eslint-disable @typescript-eslint/no-empty-object-type */
export interface ChainNode extends View<'ChainNode', typeof chainNodeShape> {}
export interface ChainNodeSet extends View<'ChainNodeSet', typeof chainNodeSetShape> {}
export interface Pod extends View<'Pod', typeof podShape> {}
export interface KubeEvent extends View<'Event', typeof eventShape> {}
export interface Lease extends View<'Lease', typeof leaseShape> {}
export interface PersistentVolumeClaim extends View<'PersistentVolumeClaim', typeof persistentVolumeClaimShape> {}
export interface ConfigMap extends View<'ConfigMap', typeof configMapShape> {}
/** A Deployment or a StatefulSet: the fields of the two that we read are the same. */
export interface Workload extends View<'Deployment' | 'StatefulSet', typeof workloadShape> {}
export interface NetworkPolicy extends View<'NetworkPolicy', typeof networkPolicyShape> {}
export interface Endpoints extends View<'Endpoints', typeof endpointsShape> {}
export interface EndpointSlice extends View<'EndpointSlice', typeof endpointSliceShape> {}
export interface VolumeSnapshot extends View<'VolumeSnapshot', typeof volumeSnapshotShape> {}
export interface WebhookConfiguration extends View<'ValidatingWebhookConfiguration', typeof webhookConfigurationShape> {}
export interface StorageClass extends View<'StorageClass', typeof storageClassShape> {}
export interface VolumeSnapshotClass extends View<'VolumeSnapshotClass', typeof volumeSnapshotClassShape> {}
/* eslint-enable @typescript-eslint/no-empty-object-type */

/** The view of each kind by name: SnapshotIndex.list('Pod') is a Pod[]. */
export interface KindViews {
  ChainNode: ChainNode
  ChainNodeSet: ChainNodeSet
  Pod: Pod
  Event: KubeEvent
  Lease: Lease
  PersistentVolumeClaim: PersistentVolumeClaim
  ConfigMap: ConfigMap
  Deployment: Workload & { kind: 'Deployment' }
  StatefulSet: Workload & { kind: 'StatefulSet' }
  NetworkPolicy: NetworkPolicy
  Endpoints: Endpoints
  EndpointSlice: EndpointSlice
  VolumeSnapshot: VolumeSnapshot
  ValidatingWebhookConfiguration: WebhookConfiguration
  StorageClass: StorageClass
  VolumeSnapshotClass: VolumeSnapshotClass
}
type ShapeViews = { [K in keyof typeof KIND_SHAPES]: View<K, (typeof KIND_SHAPES)[K]> }
type Holds<T extends true> = T
/** The views above are the shapes' types, kind by kind: the typecheck fails here when a kind is added to one list only. */
export type ViewsAreShapes = Holds<KindViews extends ShapeViews ? (ShapeViews extends KindViews ? true : false) : false>
export type Container = ShapeOf<typeof container>
export type ContainerStatus = ShapeOf<typeof containerStatus>
export type ContainerState = ShapeOf<typeof containerState>
export type Terminated = NonNullable<ContainerState['terminated']>

/** An object of a kind kinds.ts declares, as its view: `isKind(obj, 'Deployment')` narrows to a Workload. */
export const isKind = <K extends keyof KindViews>(obj: KubeObject, kind: K): obj is KindViews[K] => obj.kind === kind
