/**
 * The objects cosmopilot creates for one ChainNode (facts §4): ChainNode, Pod `<n>`, ConfigMaps
 * `<n>` / `<n>-upgrades`, node-key Secret `<n>`, data PVC `<n>` (+ its PV), Services `<n>` and
 * `<n>-internal`, and the ChainNode status.
 */
import { ownerRef, type KObject } from './api.js'
import type { Seeder } from './seeder.js'
import { appToml, configToml, type AppTomlOptions, type ConfigTomlOptions } from './toml.js'
import { fnv64Decimal, nodeId, sha256Hex } from './util.js'

export type Line = '5' | '3'

export interface AppSpec {
  app: string
  image: string
  version: string
  sdkVersion?: string
}

export const GAIA: AppSpec = { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0', sdkVersion: 'v0.53' }
export const NIBIRU: AppSpec = { app: 'nibid', image: 'ghcr.io/nibiruchain/nibiru', version: 'v2.6.0', sdkVersion: 'v0.47' }

export const NODE_UTILS_5 = '4.1.0'
export const NODE_UTILS_3 = '2.10.0'
export const NODE_UTILS_REPO = 'ghcr.io/voluzi/node-utils'

export interface NodeOptions {
  name: string
  chainID: string
  /** 5 = the 5.0.0 line (main container `app`, no TMKMS_PROXY); 3 = the 3.0.0 line. */
  line?: Line
  app?: AppSpec
  /** ChainNode labels (worker-name, nodeset, group, ...). */
  labels?: Record<string, string>
  annotations?: Record<string, string>
  /** ChainNodeSet owner of a set child. */
  owner?: KObject
  /** Extra spec fields merged over the defaults (persistence, config, validator, peers, ...). */
  spec?: Record<string, unknown>
  nodeUtilsVersion?: string
  /** `.spec.validator` set (pod label validator=true, priority class validators). */
  validator?: boolean
}

export interface PvcOptions {
  size: string
  /** status.capacity.storage (default = size). */
  capacity?: string
  storageClass?: string
  phase?: 'Bound' | 'Pending'
  dataSource?: { apiGroup: string; kind: string; name: string }
  dataHeight?: number
}

export interface PodOptions {
  node: 'kwok' | 'unmanaged'
  /**
   * Pod status document, built from the created pod (see podstatus.ts). Required on the
   * unmanaged node; on the kwok node it makes kwok leave the pod alone (manual-status label).
   */
  status?: (pod: KObject) => Record<string, unknown>
  /** User sidecars (restartable init containers) placed before node-utils, as the operator prepends them. */
  sidecarsBefore?: Record<string, unknown>[]
  /** Regular init containers after node-utils (e.g. wait-cosmosigner-discovery). */
  extraInit?: Record<string, unknown>[]
  /** Extra main containers (tmkms, vault-token-renewer). */
  extraContainers?: Record<string, unknown>[]
  extraVolumes?: Record<string, unknown>[]
  extraNodeUtilsEnv?: { name: string; value?: string; valueFrom?: unknown }[]
  /** Extra pod labels (cosmosigner-target, chain-node, ...). */
  labels?: Record<string, string>
  /** chainnode-generation annotation (default: the ChainNode's generation). */
  generation?: number
  /** Override of the pod's config-hash annotation (default: the ConfigMap's). */
  configHash?: string
  /** Main container image tag override. */
  version?: string
  /** Node-utils image override (full image). */
  nodeUtilsImage?: string
  mutate?: (pod: KObject) => void
}

export interface StackOptions {
  /** ChainNode status; `null` leaves the status subresource empty. */
  status?: Record<string, unknown> | null
  config?: Partial<ConfigTomlOptions>
  appConfig?: Partial<AppTomlOptions>
  /** ConfigMap config-hash override. */
  configHash?: string
  upgrades?: { height: number; image: string; status: string; source: string }[]
  pvc?: PvcOptions | false
  services?: boolean
  configMaps?: boolean
  /** Create the pod. */
  pod?: PodOptions | false
  /** Spec changes applied after creation (bumps metadata.generation). */
  specUpdate?: Record<string, unknown>
}

export interface NodeStack {
  cn: KObject
  pod?: KObject
  svc?: KObject
  internalSvc?: KObject
  pvc?: KObject
  configMap?: KObject
  nodeID: string
  configHash: string
  podIP?: string
  mainContainer: string
  nodeUtilsImage: string
  appImage: string
}

export function mainContainerName(o: NodeOptions): string {
  return (o.line ?? '5') === '5' ? 'app' : (o.app ?? GAIA).app
}

export function nodeUtilsImage(o: NodeOptions): string {
  return `${NODE_UTILS_REPO}:${o.nodeUtilsVersion ?? ((o.line ?? '5') === '5' ? NODE_UTILS_5 : NODE_UTILS_3)}`
}

function deepMerge(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...a }
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k]
    if (v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)) {
      out[k] = deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
    } else {
      out[k] = v
    }
  }
  return out
}

export function chainNodeObject(s: Seeder, o: NodeOptions): KObject {
  const app = o.app ?? GAIA
  const spec = deepMerge(
    {
      app: { app: app.app, image: app.image, version: app.version, sdkVersion: app.sdkVersion ?? 'v0.53' },
      genesis: { url: `https://snapshots.example.net/${o.chainID}/genesis.json`, chainID: o.chainID },
      persistence: { size: '100Gi', storageClass: 'expandable', autoResize: true },
      config: {
        blockThreshold: '0s',
        override: { 'app.toml': { 'minimum-gas-prices': app.app === 'gaiad' ? '0.005uatom' : '0.025unibi' } },
      },
      resources: { requests: { cpu: '1', memory: '4Gi' }, limits: { memory: '8Gi' } },
    },
    o.spec ?? {},
  )
  return {
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: {
      name: o.name,
      namespace: s.ns,
      labels: o.labels ?? {},
      ...(o.annotations ? { annotations: o.annotations } : {}),
      finalizers: ['cosmopilot.voluzi.com/resource-cleanup'],
      ...(o.owner ? { ownerReferences: [ownerRef(o.owner)] } : {}),
    },
    spec,
  }
}

/** Labels the pod carries: ChainNode labels minus worker-name/cosmosigner-target, plus node facts. */
export function podLabels(o: NodeOptions, id: string, extra: Record<string, string> = {}): Record<string, string> {
  const l: Record<string, string> = { ...(o.labels ?? {}) }
  delete l['worker-name']
  delete l['cosmosigner-target']
  return {
    ...l,
    'node-id': id,
    'chain-id': o.chainID,
    validator: String(o.validator ?? false),
    upgrading: 'false',
    ...extra,
  }
}

export function rootOwnerAnnotations(cn: KObject, cls: string): Record<string, string> {
  return {
    'cosmopilot.voluzi.com/root-owner-api-version': 'cosmopilot.voluzi.com/v1',
    'cosmopilot.voluzi.com/root-owner-kind': 'ChainNode',
    'cosmopilot.voluzi.com/root-owner-name': cn.metadata.name,
    'cosmopilot.voluzi.com/root-owner-namespace': cn.metadata.namespace ?? '',
    'cosmopilot.voluzi.com/root-owner-uid': cn.metadata.uid ?? '',
    'cosmopilot.voluzi.com/resource-class': cls,
    'cosmopilot.voluzi.com/resource-owner-uid': cn.metadata.uid ?? '',
  }
}

const NODE_PORTS = [
  { name: 'p2p', port: 26656 },
  { name: 'rpc', port: 26657 },
  { name: 'lcd', port: 1317 },
  { name: 'grpc', port: 9090 },
  { name: 'node-utils', port: 8000 },
  { name: 'prometheus', port: 26660 },
]

function services(s: Seeder, o: NodeOptions, cn: KObject, id: string): KObject[] {
  const base = { ...(o.labels ?? {}) }
  delete base['cosmosigner-target']
  const selector = { ...podLabels(o, id), ...{} }
  delete (selector as Record<string, string>).upgrading
  delete (selector as Record<string, string>).validator
  const ports = NODE_PORTS.map((p) => ({ name: p.name, port: p.port, protocol: 'TCP', targetPort: p.port }))
  return [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: o.name, namespace: s.ns, labels: base, ownerReferences: [ownerRef(cn)] },
      spec: { type: 'ClusterIP', ports, selector },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: `${o.name}-internal`,
        namespace: s.ns,
        labels: {
          ...base,
          peer: 'true',
          seed: 'false',
          'node-id': id,
          'chain-id': o.chainID,
          validator: String(o.validator ?? false),
        },
        ownerReferences: [ownerRef(cn)],
      },
      spec: { type: 'ClusterIP', ports, selector, publishNotReadyAddresses: true },
    },
  ]
}

const CLIENT_TOML = (chainID: string) => `# This is a TOML config file.
# For more information, see https://github.com/toml-lang/toml

###############################################################################
###                           Client Configuration                            ###
###############################################################################

# The network chain ID
chain-id = "${chainID}"
# The keyring's backend, where the keys are stored (os|file|kwallet|pass|test|memory)
keyring-backend = "os"
# CLI output format (text|json)
output = "text"
# <host>:<port> to CometBFT RPC interface for this chain
node = "tcp://localhost:26657"
# Transaction broadcasting mode (sync|async)
broadcast-mode = "sync"
`

export function renderConfig(o: NodeOptions, st: StackOptions): { data: Record<string, string>; hash: string } {
  const app = o.app ?? GAIA
  const cfg = configToml({
    moniker: o.name,
    pex: !o.validator,
    genesisInDataVolume: !!(o.spec?.genesis as { useDataVolume?: boolean } | undefined)?.useDataVolume,
    ...st.config,
  })
  const appCfg = appToml({ minimumGasPrices: app.app === 'gaiad' ? '0.005uatom' : '0.025unibi', ...st.appConfig })
  const data = { 'app.toml': appCfg, 'client.toml': CLIENT_TOML(o.chainID), 'config.toml': cfg }
  // The real hash is taken before peers are added; ours over the rest is stable the same way.
  const hashInput = JSON.stringify({ ...data, 'config.toml': cfg.replace(/^(persistent_peers|seeds|unconditional_peer_ids) = .*$/gm, '') })
  return { data, hash: st.configHash ?? fnv64Decimal(hashInput) }
}

function configMaps(s: Seeder, o: NodeOptions, st: StackOptions, cn: KObject, data: Record<string, string>, hash: string): KObject[] {
  const upgrades = { upgrades: st.upgrades ?? [] }
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: o.name,
        namespace: s.ns,
        labels: o.labels ?? {},
        annotations: { 'cosmopilot.voluzi.com/config-hash': hash },
        ownerReferences: [ownerRef(cn)],
      },
      data,
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: `${o.name}-upgrades`, namespace: s.ns, labels: o.labels ?? {}, ownerReferences: [ownerRef(cn)] },
      data: { 'upgrades.json': JSON.stringify(upgrades) },
    },
  ]
}

export function genesisConfigMap(s: Seeder, chainID: string): KObject {
  const genesis = {
    genesis_time: '2025-06-12T15:00:00Z',
    chain_id: chainID,
    initial_height: '1',
    consensus: {
      params: {
        block: { max_bytes: '22020096', max_gas: '-1' },
        evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
        validator: { pub_key_types: ['ed25519'] },
        version: { app: '0' },
        abci: { vote_extensions_enable_height: '0' },
      },
    },
    app_hash: '',
    app_state: { auth: { params: { max_memo_characters: '256' }, accounts: [] }, bank: { balances: [], supply: [] } },
  }
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${chainID}-genesis`, namespace: s.ns },
    data: { 'genesis.json': JSON.stringify(genesis, null, 2) },
  }
}

function nodeKeySecret(s: Seeder, o: NodeOptions, cn: KObject): KObject {
  const key = Buffer.from(sha256Hex(`ed25519/${s.ns}/${o.name}`) + sha256Hex(`pub/${o.name}`), 'hex').toString('base64')
  const json = JSON.stringify({ priv_key: { type: 'tendermint/PrivKeyEd25519', value: key } })
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: o.name,
      namespace: s.ns,
      labels: o.labels ?? {},
      annotations: rootOwnerAnnotations(cn, 'generatedKeys'),
    },
    type: 'Opaque',
    data: { 'node_key.json': Buffer.from(json).toString('base64') },
  }
}

export function pvcObject(s: Seeder, o: NodeOptions, cn: KObject, p: PvcOptions): KObject {
  const bound = (p.phase ?? 'Bound') === 'Bound'
  const provisioner = p.storageClass === 'fixed' ? 'kubernetes.io/no-provisioner' : 'pd.csi.storage.gke.io'
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: o.name,
      namespace: s.ns,
      labels: o.labels ?? {},
      annotations: {
        ...rootOwnerAnnotations(cn, 'dataVolumes'),
        ...(bound
          ? {
              'cosmopilot.voluzi.com/data-initialized': 'true',
              'pv.kubernetes.io/bind-completed': 'yes',
              'pv.kubernetes.io/bound-by-controller': 'yes',
            }
          : p.dataSource
            ? { 'cosmopilot.voluzi.com/data-initialized': 'true' }
            : {}),
        ...(p.dataHeight ? { 'cosmopilot.voluzi.com/data-height': String(p.dataHeight) } : {}),
        'volume.beta.kubernetes.io/storage-provisioner': provisioner,
        'volume.kubernetes.io/storage-provisioner': provisioner,
      },
      finalizers: ['kubernetes.io/pvc-protection'],
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: p.size } },
      storageClassName: p.storageClass ?? 'expandable',
      volumeMode: 'Filesystem',
      ...(p.dataSource ? { dataSource: p.dataSource, dataSourceRef: p.dataSource } : {}),
    },
  }
}

/** Bind a created PVC: PV object + PVC status (Bound, capacity). */
export async function bindPvc(s: Seeder, pvc: KObject, p: PvcOptions): Promise<void> {
  const pvName = `pvc-${pvc.metadata.uid}`
  const capacity = p.capacity ?? p.size
  const csi = p.storageClass !== 'fixed'
  const pv: KObject = {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: {
      name: pvName,
      annotations: {
        'pv.kubernetes.io/provisioned-by': csi ? 'pd.csi.storage.gke.io' : 'manual',
        ...(csi ? { 'volume.kubernetes.io/provisioner-deletion-secret-name': '', 'volume.kubernetes.io/provisioner-deletion-secret-namespace': '' } : {}),
      },
      finalizers: ['kubernetes.io/pv-protection'],
    },
    spec: {
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: capacity },
      claimRef: {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        name: pvc.metadata.name,
        namespace: pvc.metadata.namespace,
        uid: pvc.metadata.uid,
      },
      persistentVolumeReclaimPolicy: 'Retain',
      storageClassName: p.storageClass ?? 'expandable',
      volumeMode: 'Filesystem',
      ...(csi
        ? { csi: { driver: 'pd.csi.storage.gke.io', fsType: 'ext4', volumeHandle: `projects/chain-infra/zones/europe-west1-b/disks/${pvName}` } }
        : { local: { path: `/mnt/disks/${pvc.metadata.namespace}-${pvc.metadata.name}` } }),
      ...(csi
        ? {}
        : {
            nodeAffinity: {
              required: {
                nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [s.ctx.kwokNode] }] }],
              },
            },
          }),
    },
  }
  const created = await s.create(pv)
  await Promise.all([
    s.status(created, { phase: 'Bound' }),
    s.api
      .patch(pvc, { spec: { volumeName: pvName } })
      .then(() => s.status(pvc, { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: capacity } })),
  ])
}

export function nodeUtilsEnv(o: NodeOptions, extra: PodOptions['extraNodeUtilsEnv'] = []): { name: string; value?: string }[] {
  const spec = o.spec as { config?: { blockThreshold?: string; haltHeight?: number } } | undefined
  const env: { name: string; value?: string }[] = [
    { name: 'BLOCK_THRESHOLD', value: spec?.config?.blockThreshold ?? '0s' },
    { name: 'LOG_LEVEL', value: 'info' },
  ]
  if ((o.line ?? '5') === '3') env.push({ name: 'TMKMS_PROXY', value: 'false' })
  env.push(
    { name: 'CREATE_FIFO', value: 'true' },
    { name: 'TRACE_STORE', value: '/trace/trace.fifo' },
    { name: 'NODE_BINARY_NAME', value: (o.app ?? GAIA).app },
    { name: 'HALT_HEIGHT', value: String(spec?.config?.haltHeight ?? 0) },
  )
  for (const e of extra as { name: string; value?: string }[]) {
    const i = env.findIndex((x) => x.name === e.name)
    if (i >= 0) env[i] = e
    else env.push(e)
  }
  return env
}

export function podObject(s: Seeder, o: NodeOptions, cn: KObject, id: string, hash: string, p: PodOptions): KObject {
  const app = o.app ?? GAIA
  const main = mainContainerName(o)
  const nuImage = p.nodeUtilsImage ?? nodeUtilsImage(o)
  const useDataVolume = !!(o.spec?.genesis as { useDataVolume?: boolean } | undefined)?.useDataVolume
  const resources = (o.spec?.resources as Record<string, unknown> | undefined) ?? {
    requests: { cpu: '1', memory: '4Gi' },
    limits: { memory: '8Gi' },
  }
  const init: Record<string, unknown>[] = [...(p.sidecarsBefore ?? [])]
  if (useDataVolume) {
    init.push({
      name: 'link-genesis',
      image: 'busybox',
      command: ['sh'],
      args: ['-c', 'ln -sf /home/app/data/genesis.json /home/app/config/genesis.json'],
      volumeMounts: [
        { name: 'data', mountPath: '/home/app/data' },
        { name: 'config-empty-dir', mountPath: '/home/app/config' },
      ],
      imagePullPolicy: 'Always',
    })
  }
  init.push({
    name: 'node-utils',
    image: nuImage,
    restartPolicy: 'Always',
    ports: [{ name: 'node-utils', containerPort: 8000, protocol: 'TCP' }],
    env: nodeUtilsEnv(o, p.extraNodeUtilsEnv),
    readinessProbe: {
      httpGet: { path: '/must_upgrade', port: 8000, scheme: 'HTTP' },
      periodSeconds: 2,
      failureThreshold: 1,
      timeoutSeconds: 1,
      successThreshold: 1,
    },
    resources: { requests: { cpu: '300m', memory: '100Mi' }, limits: { cpu: '300m', memory: '100Mi' } },
    volumeMounts: [
      { name: 'data', mountPath: '/home/app/data', readOnly: true },
      { name: 'upgrades-config', mountPath: '/config' },
      { name: 'trace', mountPath: '/trace' },
    ],
    imagePullPolicy: 'IfNotPresent',
  })
  init.push(...(p.extraInit ?? []))
  const mainPorts = [
    { name: 'p2p', containerPort: 26656, protocol: 'TCP' },
    { name: 'rpc', containerPort: 26657, protocol: 'TCP' },
    { name: 'lcd', containerPort: 1317, protocol: 'TCP' },
    { name: 'grpc', containerPort: 9090, protocol: 'TCP' },
    { name: 'privvalidator', containerPort: 26659, protocol: 'TCP' },
    { name: 'prometheus', containerPort: 26660, protocol: 'TCP' },
  ]
  const mounts = [
    { name: 'app-empty-dir', mountPath: '/home/app' },
    { name: 'data', mountPath: '/home/app/data' },
    { name: 'config-empty-dir', mountPath: '/home/app/config' },
    { name: 'config', mountPath: '/home/app/config/app.toml', subPath: 'app.toml' },
    { name: 'config', mountPath: '/home/app/config/client.toml', subPath: 'client.toml' },
    { name: 'config', mountPath: '/home/app/config/config.toml', subPath: 'config.toml' },
    { name: 'node-key', mountPath: '/home/app/config/node_key.json', subPath: 'node_key.json' },
    { name: 'trace', mountPath: '/trace' },
    ...(useDataVolume ? [] : [{ name: 'genesis', mountPath: '/home/app/config/genesis.json', subPath: 'genesis.json' }]),
  ]
  const volumes: Record<string, unknown>[] = [
    { name: 'app-empty-dir', emptyDir: {} },
    { name: 'config', configMap: { name: o.name, defaultMode: 420 } },
    { name: 'config-empty-dir', emptyDir: {} },
    { name: 'data', persistentVolumeClaim: { claimName: o.name } },
    ...(useDataVolume ? [] : [{ name: 'genesis', configMap: { name: `${o.chainID}-genesis`, defaultMode: 420 } }]),
    { name: 'node-key', secret: { secretName: o.name, defaultMode: 420 } },
    { name: 'trace', emptyDir: {} },
    { name: 'upgrades-config', configMap: { name: `${o.name}-upgrades`, defaultMode: 420 } },
    ...(p.extraVolumes ?? []),
  ]
  const containers: Record<string, unknown>[] = [
    {
      name: main,
      image: `${app.image}:${p.version ?? app.version}`,
      command: [app.app],
      args: ['start', '--home', '/home/app', '--trace-store', '/trace/trace.fifo'],
      ports: mainPorts,
      resources,
      startupProbe: {
        httpGet: { path: '/health', port: 8000, scheme: 'HTTP' },
        periodSeconds: 5,
        timeoutSeconds: 5,
        failureThreshold: 720,
        successThreshold: 1,
      },
      livenessProbe: {
        httpGet: { path: '/health', port: 8000, scheme: 'HTTP' },
        periodSeconds: 30,
        timeoutSeconds: 5,
        failureThreshold: 2,
        successThreshold: 1,
      },
      readinessProbe: {
        httpGet: { path: '/ready', port: 8000, scheme: 'HTTP' },
        periodSeconds: 10,
        timeoutSeconds: 5,
        failureThreshold: 1,
        successThreshold: 1,
      },
      volumeMounts: mounts,
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    },
    ...(p.extraContainers ?? []),
  ]
  const spec: Record<string, unknown> = {
    nodeName: p.node === 'kwok' ? s.ctx.kwokNode : s.ctx.unmanagedNode,
    restartPolicy: 'Never',
    shareProcessNamespace: true,
    priorityClassName: o.validator ? 'cosmopilot-validators' : 'cosmopilot-nodes',
    securityContext: {
      runAsNonRoot: true,
      runAsUser: 1000,
      runAsGroup: 1000,
      fsGroup: 1000,
      seccompProfile: { type: 'RuntimeDefault' },
    },
    terminationGracePeriodSeconds: 60,
    initContainers: init,
    containers,
    volumes,
    ...(o.spec?.config && (o.spec.config as { imagePullSecrets?: unknown }).imagePullSecrets
      ? { imagePullSecrets: (o.spec.config as { imagePullSecrets: unknown }).imagePullSecrets }
      : {}),
  }
  const manual: Record<string, string> = p.node === 'unmanaged' || p.status ? { 'chainnode.test/manual-status': 'true' } : {}
  const pod: KObject = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: o.name,
      namespace: s.ns,
      labels: podLabels(o, id, { ...(p.labels ?? {}), ...manual }),
      annotations: {
        'cosmopilot.voluzi.com/config-hash': p.configHash ?? hash,
        'cosmopilot.voluzi.com/chainnode-generation': String(p.generation ?? cn.metadata.generation ?? 1),
        'cosmopilot.voluzi.com/pod-spec-hash': sha256Hex(JSON.stringify(spec)),
      },
      ownerReferences: [ownerRef(cn)],
    },
    spec,
  }
  p.mutate?.(pod)
  return pod
}

export function defaultStatus(o: NodeOptions, id: string, ip: string | undefined): Record<string, unknown> {
  const app = o.app ?? GAIA
  return {
    chainID: o.chainID,
    nodeID: id,
    ...(ip ? { ip } : {}),
    appVersion: app.version,
    validator: false,
    seedMode: false,
  }
}

/** Create the whole object graph of one ChainNode. */
export async function seedNode(s: Seeder, o: NodeOptions, st: StackOptions = {}): Promise<NodeStack> {
  const id = nodeId(`${s.ns}/${o.name}`)
  let cn = await s.create(chainNodeObject(s, o))
  if (st.specUpdate) {
    cn = await s.api.patch(cn, { spec: st.specUpdate })
  }
  const { data, hash } = renderConfig(o, st)
  const objs: KObject[] = []
  if (st.configMaps !== false) objs.push(...configMaps(s, o, st, cn, data, hash))
  if (st.services !== false) objs.push(...services(s, o, cn, id))
  objs.push(nodeKeySecret(s, o, cn))
  if (!(o.spec?.genesis as { useDataVolume?: boolean } | undefined)?.useDataVolume) objs.push(genesisConfigMap(s, o.chainID))
  const [created, pvc] = await Promise.all([
    s.createAll(objs),
    st.pvc === false ? Promise.resolve(undefined) : s.create(pvcObject(s, o, cn, st.pvc ?? { size: '100Gi' })),
  ])
  const svc = created.find((x) => x.kind === 'Service' && x.metadata.name === o.name)
  const internalSvc = created.find((x) => x.kind === 'Service' && x.metadata.name === `${o.name}-internal`)
  const configMap = created.find((x) => x.kind === 'ConfigMap' && x.metadata.name === o.name)
  const ip = (svc?.spec as { clusterIP?: string } | undefined)?.clusterIP
  const pvcOpts = st.pvc === false ? undefined : (st.pvc ?? { size: '100Gi' })
  const work: Promise<unknown>[] = []
  if (pvc && pvcOpts && (pvcOpts.phase ?? 'Bound') === 'Bound') work.push(bindPvc(s, pvc, pvcOpts))
  else if (pvc) work.push(s.status(pvc, { phase: 'Pending' }))
  if (st.status !== null) {
    work.push(
      s.status(cn, { ...defaultStatus(o, id, ip), ...(st.status ?? {}) }).then((c) => {
        cn = { ...cn, metadata: { ...cn.metadata, resourceVersion: c.metadata.resourceVersion } }
      }),
    )
  }
  let pod: KObject | undefined
  let podIP: string | undefined
  if (st.pod) {
    const p = st.pod
    work.push(
      (async () => {
        pod = await s.create(podObject(s, o, cn, id, hash, p))
        if (p.status) {
          const doc = p.status(pod)
          podIP = doc.podIP as string | undefined
          pod = await s.status(pod, doc)
        }
      })(),
    )
  }
  await Promise.all(work)
  return {
    cn,
    pod,
    svc,
    internalSvc,
    pvc,
    configMap,
    nodeID: id,
    configHash: hash,
    podIP,
    mainContainer: mainContainerName(o),
    nodeUtilsImage: (st.pod && st.pod.nodeUtilsImage) || nodeUtilsImage(o),
    appImage: `${(o.app ?? GAIA).image}:${(st.pod && st.pod.version) || (o.app ?? GAIA).version}`,
  }
}
