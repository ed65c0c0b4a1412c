/**
 * Cluster-wide pieces every scenario relies on: the cosmopilot release in `cosmopilot-system`
 * (Deployment, ReplicaSet, manager Pod, RBAC, PriorityClasses, webhook Service + certificate,
 * leader-election Lease, ValidatingWebhookConfiguration), the StorageClasses `expandable` and
 * `fixed`, and a VolumeSnapshotClass.
 */
import type { KObject } from './lib/api.js'
import { klog, zapJson, type LogLine } from './lib/logfmt.js'
import {
  OPERATOR_NS,
  chartLabels,
  holderIdentity,
  lease,
  leaderElectionRole,
  leaderElectionRoleBinding,
  seedRelease,
  serviceAccount,
  validatingWebhookConfig,
  webhookService,
} from './lib/operator.js'
import { webhookServingCert } from './lib/pki.js'
import { runningPodStatus } from './lib/podstatus.js'
import type { Seeder } from './lib/seeder.js'
import { DAY, ago, microTime, rfc3339, uuidFrom } from './lib/util.js'

export const RELEASE = 'cosmopilot'
export const LEASE_NAME = 'cosmopilot.cosmopilot.voluzi.com'
/** The manager pod has been up this long when a scenario is seeded. */
export const MANAGER_AGE = 3 * DAY + 4 * 3600
export const MANAGER_POD_IP = '10.244.1.2'

export interface SharedState {
  managerPod: KObject
  caBundle: string
}

function clusterScoped(): KObject[] {
  const pc = (name: string, value: number, description: string): KObject => ({
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name, labels: chartLabels(RELEASE) },
    value,
    globalDefault: false,
    preemptionPolicy: 'PreemptLowerPriority',
    description,
  })
  return [
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'expandable', annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
      provisioner: 'pd.csi.storage.gke.io',
      parameters: { type: 'pd-balanced' },
      reclaimPolicy: 'Delete',
      volumeBindingMode: 'WaitForFirstConsumer',
      allowVolumeExpansion: true,
    },
    {
      apiVersion: 'storage.k8s.io/v1',
      kind: 'StorageClass',
      metadata: { name: 'fixed' },
      provisioner: 'kubernetes.io/no-provisioner',
      reclaimPolicy: 'Retain',
      volumeBindingMode: 'Immediate',
    },
    {
      apiVersion: 'snapshot.storage.k8s.io/v1',
      kind: 'VolumeSnapshotClass',
      metadata: {
        name: 'csi-gce-pd-snapclass',
        annotations: { 'snapshot.storage.kubernetes.io/is-default-class': 'true' },
      },
      driver: 'pd.csi.storage.gke.io',
      deletionPolicy: 'Delete',
    },
    pc(`${RELEASE}-default`, 0, 'Default priority for cosmopilot helper pods'),
    pc(`${RELEASE}-nodes`, 950, 'Priority for blockchain node pods'),
    pc(`${RELEASE}-validators`, 1050, 'Priority for validator pods'),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: RELEASE, labels: chartLabels(RELEASE) },
      rules: [
        { apiGroups: ['cosmopilot.voluzi.com'], resources: ['chainnodes', 'chainnodesets'], verbs: ['*'] },
        {
          apiGroups: ['cosmopilot.voluzi.com'],
          resources: ['chainnodes/status', 'chainnodesets/status', 'chainnodes/finalizers', 'chainnodesets/finalizers'],
          verbs: ['get', 'update', 'patch'],
        },
        {
          apiGroups: [''],
          resources: ['pods', 'services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'events'],
          verbs: ['*'],
        },
        { apiGroups: ['apps'], resources: ['statefulsets'], verbs: ['*'] },
        { apiGroups: ['snapshot.storage.k8s.io'], resources: ['volumesnapshots'], verbs: ['*'] },
        { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies', 'ingresses'], verbs: ['*'] },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `${RELEASE}-rolebinding`, labels: chartLabels(RELEASE) },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: RELEASE },
      subjects: [{ kind: 'ServiceAccount', name: RELEASE, namespace: OPERATOR_NS }],
    },
  ]
}

/** StorageClasses, VolumeSnapshotClass, PriorityClasses, ClusterRole(Binding): needed before any pod. */
export async function seedClusterScoped(s: Seeder): Promise<void> {
  await s.createAll(clusterScoped())
}

/** Everything but the webhook configuration (created last, see finalizeShared). */
export async function seedShared(s: Seeder): Promise<SharedState> {
  const cert = webhookServingCert(s.ctx.clusterDir, RELEASE, OPERATOR_NS)
  const caBundle = Buffer.from(cert.certPem).toString('base64')
  const now = s.now
  const certObj: KObject = {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name: `${RELEASE}-cert`, namespace: OPERATOR_NS, labels: chartLabels(RELEASE) },
    spec: {
      dnsNames: [`${RELEASE}-webhook.${OPERATOR_NS}.svc`, `${RELEASE}-webhook.${OPERATOR_NS}.svc.cluster.local`],
      issuerRef: { kind: 'Issuer', name: `${RELEASE}-selfsigned-issuer` },
      secretName: `${RELEASE}-cert`,
    },
  }
  const issuer: KObject = {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Issuer',
    metadata: { name: `${RELEASE}-selfsigned-issuer`, namespace: OPERATOR_NS, labels: chartLabels(RELEASE) },
    spec: { selfSigned: {} },
  }
  const secret: KObject = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: `${RELEASE}-cert`,
      namespace: OPERATOR_NS,
      annotations: {
        'cert-manager.io/alt-names': `${RELEASE}-webhook.${OPERATOR_NS}.svc,${RELEASE}-webhook.${OPERATOR_NS}.svc.cluster.local`,
        'cert-manager.io/certificate-name': `${RELEASE}-cert`,
        'cert-manager.io/common-name': '',
        'cert-manager.io/issuer-kind': 'Issuer',
        'cert-manager.io/issuer-name': `${RELEASE}-selfsigned-issuer`,
      },
    },
    type: 'kubernetes.io/tls',
    data: {
      'ca.crt': caBundle,
      'tls.crt': caBundle,
      'tls.key': Buffer.from(cert.keyPem).toString('base64'),
    },
  }
  const [, createdCert, createdIssuer, , , , svc] = await Promise.all([
    s.create(serviceAccount(RELEASE, OPERATOR_NS)),
    s.create(certObj),
    s.create(issuer),
    s.create(secret),
    s.create(leaderElectionRole(RELEASE, OPERATOR_NS)),
    s.create(leaderElectionRoleBinding(RELEASE, OPERATOR_NS)),
    s.create(webhookService(RELEASE, OPERATOR_NS)),
  ])
  const rel = await seedRelease(s, {
    release: RELEASE,
    namespace: OPERATOR_NS,
    replicas: 1,
    podAgeSeconds: MANAGER_AGE,
    podStatus: (pod) => runningPodStatus(pod, { now, ageSeconds: MANAGER_AGE, podIP: MANAGER_POD_IP }),
  })
  const managerPod = rel.pods[0]
  const readyAt = rfc3339(ago(now, MANAGER_AGE - 20))
  await Promise.all([
    s
      .status(createdCert, {
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'Ready',
            message: 'Certificate is up to date and has not expired',
            lastTransitionTime: readyAt,
            observedGeneration: 1,
          },
        ],
        notBefore: readyAt,
        notAfter: rfc3339(new Date(now.getTime() + 80 * DAY * 1000)),
        renewalTime: rfc3339(new Date(now.getTime() + 50 * DAY * 1000)),
        revision: 1,
      })
      .catch(() => undefined),
    s
      .status(createdIssuer, {
        conditions: [{ type: 'Ready', status: 'True', reason: 'IsReady', message: '', lastTransitionTime: readyAt }],
      })
      .catch(() => undefined),
    s.create(
      lease(s, { name: LEASE_NAME, namespace: OPERATOR_NS, holder: holderIdentity(managerPod.metadata.name), acquiredAgo: MANAGER_AGE - 12, renewedAgo: 1 }),
    ),
    s.create({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `${RELEASE}-webhook-${uuidFrom('eps').slice(0, 5)}`,
        namespace: OPERATOR_NS,
        labels: { 'kubernetes.io/service-name': `${RELEASE}-webhook`, 'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io' },
        ownerReferences: [
          { apiVersion: 'v1', kind: 'Service', name: `${RELEASE}-webhook`, uid: svc?.metadata.uid ?? '', controller: true, blockOwnerDeletion: true },
        ],
      },
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: [MANAGER_POD_IP],
          conditions: { ready: true, serving: true, terminating: false },
          nodeName: s.ctx.kwokNode,
          targetRef: { kind: 'Pod', name: managerPod.metadata.name, namespace: OPERATOR_NS, uid: managerPod.metadata.uid },
        },
      ],
      ports: [{ name: 'https', port: 9443, protocol: 'TCP' }],
    }),
  ])
  return { managerPod, caBundle }
}

/** Manager log: controller-runtime startup, leader election, then what the scenarios add. */
export function managerLogs(now: Date, extra: LogLine[]): LogLine[] {
  const start = ago(now, MANAGER_AGE)
  const at = (sec: number) => new Date(start.getTime() + sec * 1000)
  const ctl = (kind: 'ChainNode' | 'ChainNodeSet') => ({
    controller: kind.toLowerCase(),
    controllerGroup: 'cosmopilot.voluzi.com',
    controllerKind: kind,
  })
  const lines: LogLine[] = [
    zapJson(at(0.1), 'info', 'setup', 'starting manager', { version: '5.0.0', workerName: '', workerCount: 10 }),
    zapJson(at(0.2), 'info', 'controller-runtime.webhook', 'Registering webhook', {
      path: '/validate-cosmopilot-voluzi-com-v1-chainnode',
    }),
    zapJson(at(0.2), 'info', 'controller-runtime.webhook', 'Registering webhook', {
      path: '/validate-cosmopilot-voluzi-com-v1-chainnodeset',
    }),
    zapJson(at(0.3), 'info', 'controller-runtime.metrics', 'Starting metrics server'),
    zapJson(at(0.3), 'info', undefined, 'starting server', { name: 'health probe', addr: '[::]:8081' }),
    zapJson(at(0.3), 'info', 'controller-runtime.webhook', 'Starting webhook server'),
    zapJson(at(0.3), 'info', 'controller-runtime.metrics', 'Serving metrics server', { bindAddress: ':8080', secure: false }),
    zapJson(at(0.4), 'info', 'controller-runtime.certwatcher', 'Updated current TLS certificate'),
    zapJson(at(0.4), 'info', 'controller-runtime.webhook', 'Serving webhook server', { host: '', port: 9443 }),
    zapJson(at(0.4), 'info', 'controller-runtime.certwatcher', 'Starting certificate poll+watcher', { interval: 10 }),
    klog(at(0.5), 'I', 'leaderelection.go:257', `attempting to acquire leader lease ${OPERATOR_NS}/${LEASE_NAME}...`),
    klog(at(12.1), 'I', 'leaderelection.go:271', `successfully acquired lease ${OPERATOR_NS}/${LEASE_NAME}`),
    zapJson(at(12.2), 'info', undefined, 'Starting EventSource', { ...ctl('ChainNode'), source: 'kind source: *v1.ChainNode' }),
    zapJson(at(12.2), 'info', undefined, 'Starting EventSource', { ...ctl('ChainNode'), source: 'kind source: *v1.Pod' }),
    zapJson(at(12.2), 'info', undefined, 'Starting EventSource', { ...ctl('ChainNodeSet'), source: 'kind source: *v1.ChainNodeSet' }),
    zapJson(at(12.3), 'info', undefined, 'Starting Controller', ctl('ChainNode')),
    zapJson(at(12.3), 'info', undefined, 'Starting Controller', ctl('ChainNodeSet')),
    zapJson(at(12.5), 'info', undefined, 'Starting workers', { ...ctl('ChainNode'), 'worker count': 10 }),
    zapJson(at(12.5), 'info', undefined, 'Starting workers', { ...ctl('ChainNodeSet'), 'worker count': 10 }),
  ]
  return [...lines, ...extra].sort((a, b) => a.at.getTime() - b.at.getTime())
}

/** After every scenario is in: the manager's log and the webhook configuration. */
export async function finalizeShared(s: Seeder, st: SharedState, extraLogs: LogLine[]): Promise<void> {
  await Promise.all([
    s.logs(st.managerPod.metadata.name, { manager: { current: managerLogs(s.now, extraLogs) } }),
    s.create(validatingWebhookConfig({ release: RELEASE, namespace: OPERATOR_NS, caBundle: st.caBundle })),
  ])
}

/** Keep the healthy leader's Lease fresh. */
export async function refreshShared(s: Seeder): Promise<void> {
  const l = await s.api.tryGet('coordination.k8s.io/v1', 'Lease', OPERATOR_NS, LEASE_NAME)
  if (!l) return
  await s.api.patch(l, { spec: { renewTime: microTime(new Date()) } })
}
