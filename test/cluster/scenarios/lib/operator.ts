/**
 * The cosmopilot Helm release objects (facts §7): Deployment `<rel>`, its ReplicaSet and Pods,
 * ServiceAccount, RBAC, PriorityClasses, webhook Service, cert-manager Issuer/Certificate/Secret,
 * leader-election Lease and the ValidatingWebhookConfiguration.
 */
import { ownerRef, type KObject } from './api.js'
import type { Seeder } from './seeder.js'
import { podStatus, type ContainerStatusSpec } from './podstatus.js'
import { ago, k8sSuffix, rfc3339, microTime, templateHash, uuidFrom } from './util.js'

export const OPERATOR_NS = 'cosmopilot-system'
export const OPERATOR_IMAGE = 'ghcr.io/voluzi/cosmopilot:5.0.0'
export const NODE_UTILS_IMAGE = 'ghcr.io/voluzi/node-utils:4.1.0'
export const COSMOSIGNER_IMAGE = 'ghcr.io/voluzi/cosmosigner:3.1.2'

export function chartLabels(release: string): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'cosmopilot',
    'helm.sh/chart': 'cosmopilot',
    'app.kubernetes.io/managed-by': 'Helm',
    'app.kubernetes.io/instance': release,
  }
}

export function selectorLabels(release: string): Record<string, string> {
  return { 'app.kubernetes.io/name': 'cosmopilot', 'app.kubernetes.io/instance': release }
}

export interface ReleaseOptions {
  release: string
  namespace: string
  workerName?: string
  replicas?: number
  /** Pod status document; without it kwok runs the pods. */
  podStatus?: (pod: KObject, i: number) => Record<string, unknown>
  /** Put status-managed pods on the unmanaged node (default: the kwok node, kwok told to keep off). */
  unmanaged?: boolean
  /** Age of the ReplicaSet's pods. */
  podAgeSeconds?: number
  /** false: installed without the chart's ENABLE_LEADER_ELECTION=true (the binary's default is off). */
  leaderElection?: boolean
}

export interface Release {
  deployment: KObject
  replicaSet: KObject
  pods: KObject[]
  hash: string
}

function managerContainer(o: ReleaseOptions): Record<string, unknown> {
  return {
    name: 'manager',
    image: OPERATOR_IMAGE,
    imagePullPolicy: 'IfNotPresent',
    command: ['/manager'],
    env: [
      { name: 'NODE_UTILS_IMAGE', value: NODE_UTILS_IMAGE },
      { name: 'COSMOGUARD_IMAGE', value: 'ghcr.io/voluzi/cosmoguard:5.0.0' },
      { name: 'COSMOSEED_IMAGE', value: 'ghcr.io/voluzi/cosmoseed:0.12.0' },
      { name: 'COSMOSIGNER_IMAGE', value: COSMOSIGNER_IMAGE },
      { name: 'DATA_EXPORTER_IMAGE', value: 'ghcr.io/voluzi/dataexporter:2.0.1' },
      { name: 'WORKER_NAME', value: o.workerName ?? '' },
      { name: 'WORKER_COUNT', value: '10' },
      { name: 'DISABLE_WEBHOOKS', value: 'false' },
      { name: 'DEBUG_MODE', value: 'false' },
      ...(o.leaderElection === false ? [] : [{ name: 'ENABLE_LEADER_ELECTION', value: 'true' }]),
      { name: 'DISRUPTION_CHECKS_ENABLED', value: 'true' },
    ],
    ports: [
      { name: 'webhook-server', containerPort: 9443, protocol: 'TCP' },
      { name: 'metrics', containerPort: 8080, protocol: 'TCP' },
      { name: 'health', containerPort: 8081, protocol: 'TCP' },
    ],
    livenessProbe: { httpGet: { path: '/healthz', port: 8081, scheme: 'HTTP' }, initialDelaySeconds: 15, periodSeconds: 20 },
    readinessProbe: { httpGet: { path: '/readyz', port: 8081, scheme: 'HTTP' }, initialDelaySeconds: 5, periodSeconds: 10 },
    resources: { requests: { cpu: '10m', memory: '150Mi' }, limits: { cpu: '250m', memory: '300Mi' } },
    securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } },
    volumeMounts: [{ name: 'cert', mountPath: '/tmp/k8s-webhook-server/serving-certs', readOnly: true }],
  }
}

function podTemplate(o: ReleaseOptions): Record<string, unknown> {
  return {
    metadata: {
      labels: chartLabels(o.release),
      annotations: {
        'kubectl.kubernetes.io/default-container': 'manager',
        rollme: k8sSuffix(`rollme/${o.namespace}/${o.release}`, 5),
      },
    },
    spec: {
      serviceAccountName: o.release,
      securityContext: { runAsNonRoot: true },
      terminationGracePeriodSeconds: 10,
      containers: [managerContainer(o)],
      volumes: [{ name: 'cert', secret: { secretName: `${o.release}-cert`, defaultMode: 420 } }],
    },
  }
}

/** Deployment + ReplicaSet + Pods of one release (no controller-manager: everything by hand). */
export async function seedRelease(s: Seeder, o: ReleaseOptions): Promise<Release> {
  const replicas = o.replicas ?? 1
  const tpl = podTemplate(o)
  const hash = templateHash(`${o.namespace}/${o.release}`)
  const labels = chartLabels(o.release)
  const dep = await s.create({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: o.release,
      namespace: o.namespace,
      labels,
      annotations: { 'meta.helm.sh/release-name': o.release, 'meta.helm.sh/release-namespace': o.namespace },
    },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: tpl,
    },
  })
  const rsName = `${o.release}-${hash}`
  const tplWithHash = {
    ...tpl,
    metadata: {
      ...(tpl.metadata as Record<string, unknown>),
      labels: { ...labels, 'pod-template-hash': hash },
    },
  }
  const rs = await s.create({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: rsName,
      namespace: o.namespace,
      labels: { ...labels, 'pod-template-hash': hash },
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(replicas),
        'deployment.kubernetes.io/max-replicas': String(replicas + 1),
        'deployment.kubernetes.io/revision': '1',
        'meta.helm.sh/release-name': o.release,
        'meta.helm.sh/release-namespace': o.namespace,
      },
      ownerReferences: [ownerRef(dep)],
    },
    spec: { replicas, selector: { matchLabels: { ...labels, 'pod-template-hash': hash } }, template: tplWithHash },
  })
  const pods = await Promise.all(
    Array.from({ length: replicas }, async (_, i) => {
      const name = `${rsName}-${k8sSuffix(`${o.namespace}/${rsName}/${i}`)}`
      const manual = o.podStatus !== undefined
      const tm = tplWithHash.metadata as unknown as { labels: Record<string, string>; annotations: Record<string, string> }
      let pod: KObject = await s.create<KObject>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: o.namespace,
          labels: { ...tm.labels, ...(manual ? { 'chainnode.test/manual-status': 'true' } : {}) },
          annotations: tm.annotations,
          ownerReferences: [ownerRef(rs)],
        },
        spec: {
          ...(tpl.spec as Record<string, unknown>),
          nodeName: o.unmanaged ? s.ctx.unmanagedNode : s.ctx.kwokNode,
        },
      })
      if (o.podStatus) pod = await s.status(pod, o.podStatus(pod, i))
      return pod
    }),
  )
  const ready = pods.filter((p) => {
    const st = p.status as { conditions?: { type: string; status: string }[] } | undefined
    return !o.podStatus || st?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
  }).length
  const t = rfc3339(ago(s.now, o.podAgeSeconds ?? 3600))
  await Promise.all([
    s.status(dep, {
      observedGeneration: 1,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      ...(ready < replicas ? { unavailableReplicas: replicas - ready } : {}),
      conditions: [
        ready === replicas
          ? {
              type: 'Available',
              status: 'True',
              reason: 'MinimumReplicasAvailable',
              message: 'Deployment has minimum availability.',
              lastUpdateTime: t,
              lastTransitionTime: t,
            }
          : {
              type: 'Available',
              status: 'False',
              reason: 'MinimumReplicasUnavailable',
              message: 'Deployment does not have minimum availability.',
              lastUpdateTime: t,
              lastTransitionTime: t,
            },
        {
          type: 'Progressing',
          status: 'True',
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${rsName}" has successfully progressed.`,
          lastUpdateTime: t,
          lastTransitionTime: t,
        },
      ],
    }),
    s.status(rs, {
      replicas,
      fullyLabeledReplicas: replicas,
      readyReplicas: ready,
      availableReplicas: ready,
      observedGeneration: 1,
    }),
  ])
  return { deployment: dep, replicaSet: rs, pods, hash }
}

export function serviceAccount(release: string, namespace: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: release, namespace, labels: chartLabels(release) },
  }
}

export function leaderElectionRole(release: string, namespace: string): KObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: `${release}-leader-election`, namespace, labels: chartLabels(release) },
    rules: [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'] },
      {
        apiGroups: ['coordination.k8s.io'],
        resources: ['leases'],
        verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
      },
      { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    ],
  }
}

export function leaderElectionRoleBinding(release: string, namespace: string): KObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: `${release}-leader-election-rolebinding`, namespace, labels: chartLabels(release) },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: `${release}-leader-election` },
    subjects: [{ kind: 'ServiceAccount', name: release, namespace }],
  }
}

export function webhookService(release: string, namespace: string): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: `${release}-webhook`, namespace, labels: chartLabels(release) },
    spec: {
      type: 'ClusterIP',
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 9443 }],
      selector: selectorLabels(release),
    },
  }
}

export interface LeaseOptions {
  name: string
  namespace: string
  holder: string
  acquiredAgo: number
  renewedAgo: number
  transitions?: number
}

export function lease(s: Seeder, o: LeaseOptions): KObject {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: o.name, namespace: o.namespace },
    spec: {
      holderIdentity: o.holder,
      leaseDurationSeconds: 15,
      acquireTime: microTime(ago(s.now, o.acquiredAgo)),
      renewTime: microTime(ago(s.now, o.renewedAgo)),
      leaseTransitions: o.transitions ?? 0,
    },
  }
}

/** client-go's leader-election identity: `<hostname>_<uuid>`. */
export function holderIdentity(podName: string): string {
  return `${podName}_${uuidFrom(`holder/${podName}`)}`
}

export interface WebhookConfigOptions {
  release: string
  namespace: string
  workerName?: string
  caBundle: string
}

/**
 * The chart's ValidatingWebhookConfiguration. The test apiserver has no webhook server behind
 * it, so the copy in the cluster is defused: failurePolicy Ignore and a namespaceSelector that
 * matches no namespace. The chart's values are kept in `chainnode.test/*` annotations.
 */
export function validatingWebhookConfig(o: WebhookConfigOptions): KObject {
  const objectSelector = o.workerName
    ? { matchLabels: { 'worker-name': o.workerName } }
    : { matchExpressions: [{ key: 'worker-name', operator: 'DoesNotExist' }] }
  const hook = (name: string, resource: string, path: string) => ({
    name,
    admissionReviewVersions: ['v1'],
    clientConfig: {
      service: { name: `${o.release}-webhook`, namespace: o.namespace, path, port: 443 },
      ...(o.caBundle ? { caBundle: o.caBundle } : {}),
    },
    failurePolicy: 'Ignore',
    matchPolicy: 'Equivalent',
    namespaceSelector: {
      matchExpressions: [{ key: 'kubernetes.io/metadata.name', operator: 'In', values: ['chainnode-test-webhook-never-called'] }],
    },
    objectSelector,
    rules: [
      {
        apiGroups: ['cosmopilot.voluzi.com'],
        apiVersions: ['v1'],
        operations: ['CREATE', 'UPDATE'],
        resources: [resource],
        scope: '*',
      },
    ],
    sideEffects: 'None',
    timeoutSeconds: 10,
  })
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: {
      name: `${o.release}-validating-webhook-cfg`,
      labels: chartLabels(o.release),
      annotations: {
        'cert-manager.io/inject-ca-from': `${o.namespace}/${o.release}-cert`,
        'meta.helm.sh/release-name': o.release,
        'meta.helm.sh/release-namespace': o.namespace,
        'chainnode.test/chart-failure-policy': 'Fail',
        'chainnode.test/chart-namespace-selector': '{}',
        'chainnode.test/note': 'defused for the test cluster: no webhook server runs behind the Service',
      },
    },
    webhooks: [
      hook('vchainnode.kb.io', 'chainnodes', '/validate-cosmopilot-voluzi-com-v1-chainnode'),
      hook('vchainnodeset.kb.io', 'chainnodesets', '/validate-cosmopilot-voluzi-com-v1-chainnodeset'),
    ],
  }
}

/** Status of a CrashLoopBackOff manager pod (for the webhook-certificates scenario). */
export function crashLoopManager(
  s: Seeder,
  pod: KObject,
  o: { podIP: string; restarts: number; lastExitAgo: number; startedAgo: number },
): Record<string, unknown> {
  const c: ContainerStatusSpec = {
    name: 'manager',
    image: OPERATOR_IMAGE,
    ready: false,
    restartCount: o.restarts,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off 5m0s restarting failed container=manager pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`,
      },
    },
    lastState: {
      terminated: {
        exitCode: 1,
        reason: 'Error',
        startedAt: ago(s.now, o.lastExitAgo + 2),
        finishedAt: ago(s.now, o.lastExitAgo),
      },
    },
    pulled: true,
  }
  return podStatus({
    phase: 'Running',
    podUid: pod.metadata.uid ?? '',
    startTime: ago(s.now, o.startedAgo),
    podIP: o.podIP,
    containers: [c],
    initialized: true,
    ready: false,
    transitionAt: ago(s.now, o.startedAgo - 5),
  })
}
