/**
 * A cosmosigner remote signer as the 5.0.0 operator line deploys it (facts §5.4, §11):
 * StatefulSet `<signer>` (container `cosmosigner`, HTTP health on 8080 `http`, raft 7070), raft
 * headless Service `<signer>`, discovery headless Service `<signer>-privval` (26659), ConfigMap,
 * raft NetworkPolicy, raft PVCs, and the discovery gate init container of target pods.
 */
import { ownerRef, type KObject } from './api.js'
import { bindPvc } from './node.js'
import type { Seeder } from './seeder.js'
import { k8sSuffix, sha256Hex, templateHash } from './util.js'

export interface SignerOptions {
  name: string
  image: string
  replicas: number
  /** The standalone ChainNode owning the signer. */
  owner: KObject
  vaultAddress?: string
}

export function signerLabels(name: string, owner: KObject): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'cosmosigner',
    'app.kubernetes.io/instance': name,
    'chain-node': owner.metadata.name,
  }
}

export function signerConfigYaml(o: SignerOptions, ns: string, chainID: string): string {
  return `chain_id: ${chainID}
log_level: info
http_addr: 0.0.0.0:8080
validators:
  - address: tcp://${o.name}-privval.${ns}.svc:26659
    protocol: v0.38
    retry_interval: 1s
raft:
  bind: 0.0.0.0:7070
  data_dir: /data/raft
  peers:
${Array.from({ length: Math.max(o.replicas, 1) }, (_, i) => `    - ${o.name}-${i}.${o.name}.${ns}.svc:7070`).join('\n')}
backend:
  vault:
    address: ${o.vaultAddress ?? 'https://vault.vault.svc:8200'}
    mount: transit
    key_name: ${o.owner.metadata.name}-consensus
    key_version: 1
    token_file: /vault/token
`
}

export function signerPodTemplate(s: Seeder, o: SignerOptions, rollme: string): Record<string, unknown> {
  return {
    metadata: { labels: signerLabels(o.name, o.owner) },
    spec: {
      serviceAccountName: 'default',
      priorityClassName: 'cosmopilot-validators',
      securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
      terminationGracePeriodSeconds: 30,
      containers: [
        {
          name: 'cosmosigner',
          image: o.image,
          args: ['start', '--config', '/config/config.yaml'],
          env: [
            { name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } },
            { name: 'COSMOSIGNER_RAFT_NODE_ID', value: '$(POD_NAME)' },
            { name: 'COSMOSIGNER_RAFT_ADVERTISE', value: `$(POD_NAME).${o.name}.${s.ns}.svc:7070` },
            { name: 'COSMOSIGNER_HTTP_ADDR', value: '0.0.0.0:8080' },
            { name: 'ROLLME', value: rollme },
          ],
          ports: [
            { name: 'raft', containerPort: 7070, protocol: 'TCP' },
            { name: 'http', containerPort: 8080, protocol: 'TCP' },
          ],
          startupProbe: { httpGet: { path: '/livez', port: 'http', scheme: 'HTTP' }, periodSeconds: 5, failureThreshold: 60 },
          livenessProbe: { httpGet: { path: '/livez', port: 'http', scheme: 'HTTP' }, periodSeconds: 10, failureThreshold: 3 },
          readinessProbe: { httpGet: { path: '/readyz', port: 'http', scheme: 'HTTP' }, periodSeconds: 5, failureThreshold: 3 },
          resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { memory: '256Mi' } },
          volumeMounts: [
            { name: 'config', mountPath: '/config' },
            { name: 'data', mountPath: '/data' },
            { name: 'vault-token', mountPath: '/vault', readOnly: true },
          ],
        },
      ],
      volumes: [
        { name: 'config', configMap: { name: o.name, defaultMode: 420 } },
        { name: 'vault-token', secret: { secretName: `${o.owner.metadata.name}-vault-token`, defaultMode: 420 } },
      ],
    },
  }
}

export interface SignerObjects {
  statefulSet: KObject
  pods: KObject[]
  raftService: KObject
  privvalService: KObject
  revision: string
}

/**
 * StatefulSet, services, config and policy of a signer; pods are created with `podStatus`
 * (a status document) or left to kwok when it is omitted.
 */
export async function seedSigner(
  s: Seeder,
  o: SignerOptions,
  chainID: string,
  podStatus?: (pod: KObject, i: number) => Record<string, unknown>,
  podCount = o.replicas,
): Promise<SignerObjects> {
  const labels = signerLabels(o.name, o.owner)
  const config = signerConfigYaml(o, s.ns, chainID)
  const rollme = sha256Hex(config)
  const template = signerPodTemplate(s, o, rollme)
  const revision = `${o.name}-${templateHash(`${s.ns}/${o.name}/${o.image}`).slice(0, 10)}`
  const owner = [ownerRef(o.owner)]
  const [sts, raftService, privvalService] = await Promise.all([
    s.create<KObject>({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: {
        name: o.name,
        namespace: s.ns,
        labels,
        annotations: { 'cosmopilot.voluzi.com/cosmosigner-ever-rolled-out': 'true' },
        ownerReferences: owner,
      },
      spec: {
        replicas: o.replicas,
        serviceName: o.name,
        podManagementPolicy: 'Parallel',
        updateStrategy: { type: 'OnDelete' },
        selector: { matchLabels: { 'app.kubernetes.io/name': 'cosmosigner', 'app.kubernetes.io/instance': o.name } },
        template,
        volumeClaimTemplates: [
          {
            apiVersion: 'v1',
            kind: 'PersistentVolumeClaim',
            metadata: { name: 'data', labels: { 'cosmopilot.voluzi.com/cosmosigner-owner': o.owner.metadata.uid ?? '' } },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'expandable' },
          },
        ],
      },
    }),
    s.create<KObject>({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: o.name, namespace: s.ns, labels, ownerReferences: owner },
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector: { 'app.kubernetes.io/name': 'cosmosigner', 'app.kubernetes.io/instance': o.name },
        ports: [{ name: 'raft', port: 7070, targetPort: 7070, protocol: 'TCP' }],
      },
    }),
    s.create<KObject>({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: `${o.name}-privval`, namespace: s.ns, labels, ownerReferences: owner },
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector: { 'chain-node': o.owner.metadata.name, 'cosmosigner-target': o.name },
        ports: [{ name: 'privvalidator', port: 26659, targetPort: 26659, protocol: 'TCP' }],
      },
    }),
    s.create({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: o.name, namespace: s.ns, labels, ownerReferences: owner },
      data: { 'config.yaml': config },
    }),
    s.create({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: o.name, namespace: s.ns, labels, ownerReferences: owner },
      spec: {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'cosmosigner', 'app.kubernetes.io/instance': o.name } },
        policyTypes: ['Ingress'],
        ingress: [
          {
            from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'cosmosigner', 'app.kubernetes.io/instance': o.name } } }],
            ports: [{ protocol: 'TCP', port: 7070 }],
          },
          { ports: [{ protocol: 'TCP', port: 8080 }] },
        ],
      },
    }),
  ])
  const pods = await Promise.all(
    Array.from({ length: podCount }, async (_, i) => {
      const name = `${o.name}-${i}`
      const tm = template.metadata as { labels: Record<string, string> }
      const pvc = await s.create<KObject>({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: `data-${name}`,
          namespace: s.ns,
          labels: { ...tm.labels, 'cosmopilot.voluzi.com/cosmosigner-owner': o.owner.metadata.uid ?? '' },
          finalizers: ['kubernetes.io/pvc-protection', 'cosmopilot.voluzi.com/cosmosigner-retained-state'],
        },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'expandable' },
      })
      let pod = await s.create<KObject>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace: s.ns,
          labels: {
            ...tm.labels,
            'controller-revision-hash': revision,
            'statefulset.kubernetes.io/pod-name': name,
            'apps.kubernetes.io/pod-index': String(i),
            ...(podStatus ? { 'chainnode.test/manual-status': 'true' } : {}),
          },
          ownerReferences: [ownerRef(sts)],
        },
        spec: {
          ...(template.spec as Record<string, unknown>),
          hostname: name,
          subdomain: o.name,
          nodeName: s.ctx.kwokNode,
          volumes: [...((template.spec as { volumes: unknown[] }).volumes ?? []), { name: 'data', persistentVolumeClaim: { claimName: `data-${name}` } }],
        },
      })
      await bindPvc(s, pvc, { size: '1Gi', storageClass: 'expandable' })
      if (podStatus) pod = await s.status(pod, podStatus(pod, i))
      return pod
    }),
  )
  return { statefulSet: sts, pods, raftService, privvalService, revision }
}

export async function setSignerStatus(s: Seeder, o: SignerObjects, replicas: number, ready: number): Promise<void> {
  await s.status(o.statefulSet, {
    observedGeneration: 1,
    replicas,
    readyReplicas: ready,
    currentReplicas: replicas,
    updatedReplicas: replicas,
    availableReplicas: ready,
    currentRevision: o.revision,
    updateRevision: o.revision,
    collisionCount: 0,
  })
}

/** EndpointSlice (and legacy Endpoints) of a Service, as the endpoint controllers write them. */
export async function seedEndpoints(
  s: Seeder,
  svc: KObject,
  port: { name: string; port: number },
  targets: { ip: string; pod: KObject; ready: boolean }[],
): Promise<void> {
  const name = svc.metadata.name
  await Promise.all([
    s.create({
      apiVersion: 'discovery.k8s.io/v1',
      kind: 'EndpointSlice',
      metadata: {
        name: `${name}-${k8sSuffix(`eps/${s.ns}/${name}`)}`,
        namespace: s.ns,
        labels: {
          ...(svc.metadata.labels ?? {}),
          'kubernetes.io/service-name': name,
          'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
          'service.kubernetes.io/headless': '',
        },
        ownerReferences: [{ ...ownerRef(svc), controller: true }],
      },
      addressType: 'IPv4',
      endpoints: targets.map((t) => ({
        addresses: [t.ip],
        conditions: { ready: t.ready, serving: t.ready, terminating: false },
        hostname: t.pod.metadata.name,
        nodeName: (t.pod.spec as { nodeName?: string }).nodeName,
        targetRef: { kind: 'Pod', name: t.pod.metadata.name, namespace: s.ns, uid: t.pod.metadata.uid },
      })),
      ports: [{ name: port.name, port: port.port, protocol: 'TCP' }],
    }),
    s.create({
      apiVersion: 'v1',
      kind: 'Endpoints',
      metadata: { name, namespace: s.ns, labels: { ...(svc.metadata.labels ?? {}), 'service.kubernetes.io/headless': '' } },
      ...(targets.length
        ? {
            subsets: [
              {
                ...(targets.some((t) => t.ready)
                  ? {
                      addresses: targets
                        .filter((t) => t.ready)
                        .map((t) => ({
                          ip: t.ip,
                          hostname: t.pod.metadata.name,
                          targetRef: { kind: 'Pod', name: t.pod.metadata.name, namespace: s.ns, uid: t.pod.metadata.uid },
                        })),
                    }
                  : {}),
                ...(targets.some((t) => !t.ready)
                  ? {
                      notReadyAddresses: targets
                        .filter((t) => !t.ready)
                        .map((t) => ({
                          ip: t.ip,
                          hostname: t.pod.metadata.name,
                          targetRef: { kind: 'Pod', name: t.pod.metadata.name, namespace: s.ns, uid: t.pod.metadata.uid },
                        })),
                    }
                  : {}),
                ports: [{ name: port.name, port: port.port, protocol: 'TCP' }],
              },
            ],
          }
        : {}),
    }),
  ])
}

/** The 5.0.0-line discovery gate (init container after node-utils). */
export function discoveryGate(ns: string, signer: string, nodeUtilsImage: string): Record<string, unknown> {
  return {
    name: 'wait-cosmosigner-discovery',
    image: nodeUtilsImage,
    args: ['wait-for-signer', '26659', `${signer}-privval.${ns}.svc`, '$(POD_IP)', '25s'],
    env: [{ name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }],
    resources: { requests: { cpu: '10m', memory: '16Mi' }, limits: { cpu: '100m', memory: '32Mi' } },
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'FallbackToLogsOnError',
    imagePullPolicy: 'IfNotPresent',
  }
}
