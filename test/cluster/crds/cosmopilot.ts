/**
 * Our model of the cosmopilot operator's API (group cosmopilot.voluzi.com, version v1, as of operator v3.0.0),
 * written from its documented types: ChainNode, ChainNodeSet and the cluster-scoped ConsensusKeyReservation.
 *
 * Every spec and status field the operator defines at the levels our tools and tests read is typed here, with
 * the required fields and enums the API server enforces and the printer columns `kubectl get` shows; deeper
 * Kubernetes types (affinity, security contexts, sidecars) and signer backends are kept whole (`open`).
 * test/unit/crds.test.ts holds these field paths against the operator's own CRDs when they are at hand.
 */
import { anyValue, bool, crd, int, list, obj, oneOf, open, quantity, resources, str, stringMap, strings, type Schema } from './schema.js'

const GROUP = 'cosmopilot.voluzi.com'

const app = obj(
  {
    app: str,
    image: str,
    version: str,
    imagePullPolicy: str,
    sdkVersion: oneOf('v0.45', 'v0.47', 'v0.50', 'v0.53'),
    sdkOptions: open,
    checkGovUpgrades: bool,
    upgrades: list(obj({ height: int, image: str, forceOnChain: bool }, ['height', 'image'])),
  },
  ['app', 'image'],
)

const genesis = obj({
  url: str,
  configMap: str,
  fromNodeRPC: obj({ hostname: str, port: int, secure: bool }, ['hostname']),
  chainID: str,
  genesisSHA: str,
  useDataVolume: bool,
})

const nodeConfig = obj({
  override: anyValue,
  sidecars: list(open),
  imagePullSecrets: list(open),
  blockThreshold: str,
  reconcilePeriod: str,
  startupTime: str,
  stateSync: obj({ snapshotInterval: int, snapshotKeepRecent: int }, ['snapshotInterval']),
  seedMode: bool,
  env: list(open),
  nodeUtilsEnv: list(open),
  nodeUtilsLogLevel: str,
  nodeUtilsResources: resources,
  cosmosignerDiscoveryResources: obj({
    limits: { type: 'object', additionalProperties: quantity },
    requests: { type: 'object', additionalProperties: quantity },
  }),
  cosmoGuard: obj({ enable: bool, config: open, image: str, replicas: int, resources, restartPodOnFailure: bool, autoscaling: open, dashboard: open }, [
    'config',
    'enable',
  ]),
  dashedConfigToml: bool,
  evmEnabled: bool,
  haltHeight: int,
  ignoreSyncing: bool,
  persistAddressBook: bool,
  podAnnotations: stringMap,
  podSecurityContext: open,
  securityContext: open,
  runFlags: strings,
  safeToEvict: bool,
  serviceAccountName: str,
  terminationGracePeriodSeconds: int,
})

const snapshots = obj(
  {
    frequency: str,
    retention: str,
    retain: int,
    snapshotClass: str,
    stopNode: bool,
    verify: bool,
    preserveLastSnapshot: bool,
    disableWhileSyncing: bool,
    disableWhileUnhealthy: bool,
    exportTarball: open,
    resources,
    affinity: open,
    nodeSelector: stringMap,
  },
  ['frequency'],
)

const persistence = obj({
  size: str,
  storageClass: str,
  autoResize: bool,
  autoResizeThreshold: int,
  autoResizeIncrement: str,
  autoResizeMaxSize: str,
  initTimeout: str,
  restoreFromSnapshot: obj({ name: str }, ['name']),
  snapshots,
  additionalInitCommands: list(open),
  additionalVolumes: list(open),
})

const validatorCommon = {
  privateKeySecret: str,
  info: open,
  init: obj({ chainID: str, assets: strings, stakeAmount: str }, ['assets', 'chainID', 'stakeAmount']),
  createValidator: obj({ gasPrices: str, stakeAmount: str }, ['gasPrices', 'stakeAmount']),
  tmKMS: obj({ provider: open, keyFormat: open, validatorProtocol: str, persistState: bool, resources }, ['provider']),
  accountHDPath: str,
  accountPrefix: str,
  valPrefix: str,
}

const cosmosigner = obj(
  {
    backend: open,
    image: str,
    logLevel: str,
    replicas: int,
    nodeGroups: strings,
    raftTLSSecret: str,
    resources,
    serviceAccountName: str,
    stateStorageSize: str,
    storageClassName: str,
    unsafeAllowInsecureRaft: bool,
  },
  ['backend'],
)

const deletionPolicy = obj({ dataVolumes: oneOf('Retain', 'Delete'), generatedKeys: oneOf('Retain', 'Delete'), cosmosignerState: oneOf('Retain', 'Delete') })
const peer = obj({ id: str, address: str, port: int, seed: bool, private: bool, unconditional: bool }, ['address', 'id'])
const upgradeStatus = obj({ height: int, image: str, status: str, source: str }, ['height', 'image', 'source', 'status'])
const condition = obj(
  {
    type: str,
    status: oneOf('True', 'False', 'Unknown'),
    reason: str,
    message: str,
    lastTransitionTime: { type: 'string', format: 'date-time' },
    observedGeneration: int,
  },
  ['lastTransitionTime', 'message', 'reason', 'status', 'type'],
)

/** What a node's Pod takes, alike on a ChainNode, a set's node group and a set's validator. */
const podFields = {
  config: nodeConfig,
  persistence,
  resources,
  stateSyncResources: resources,
  stateSyncRestore: bool,
  affinity: open,
  nodeSelector: stringMap,
  overrideVersion: str,
  vpa: obj({ enabled: bool, cpu: open, memory: open, resetVpaAfterNodeUpgrade: bool }, ['enabled']),
}
const expose = obj({ p2p: bool, p2pServiceType: str, annotations: stringMap, gateway: open })
const pdb = obj({ enabled: bool, minAvailable: int }, ['enabled'])

const chainNodeSpec = obj(
  {
    app,
    genesis,
    ...podFields,
    validator: obj(validatorCommon),
    cosmosigner,
    remoteSignerTarget: bool,
    peers: list(peer),
    autoDiscoverPeers: bool,
    expose,
    ingress: open,
    gateway: open,
    ignoreGroupOnDisruptionChecks: bool,
    deletionPolicy,
  },
  ['app'],
)

const snapshotExport = obj(
  {
    id: str,
    snapshotName: str,
    snapshotUID: str,
    objectName: str,
    destination: obj(
      {
        provider: oneOf('s3', 'gcs', 'unknown'),
        bucket: str,
        region: str,
        endpoint: str,
        forcePathStyle: bool,
        credentialsSecret: obj({ name: str, key: str }, ['name']),
        serviceAccountName: str,
      },
      ['provider'],
    ),
    phase: oneOf('Uploading', 'Uploaded', 'Deleting', 'CleanupRequired', 'Deleted', 'Acknowledged'),
    message: str,
    compression: oneOf('none', 'gzip', 'zstd', 'lz4'),
    bufferSize: str,
    chunkSize: str,
    partSize: str,
    sizeLimit: str,
    concurrentJobs: int,
    deleteOnExpire: bool,
    deleteAttempts: int,
    deleteExhausted: bool,
    lastDeleteError: str,
    nextDeleteRetryAt: str,
  },
  ['destination', 'id', 'objectName', 'phase', 'snapshotName'],
)

const chainNodeStatus = obj(
  {
    phase: str,
    conditions: list(condition),
    nodeID: str,
    ip: str,
    publicAddress: str,
    chainID: str,
    pvcSize: str,
    dataUsage: str,
    validator: bool,
    accountAddress: str,
    validatorAddress: str,
    jailed: bool,
    validatorStatus: str,
    pubKey: str,
    appVersion: str,
    latestHeight: int,
    seedMode: bool,
    upgrades: list(upgradeStatus),
    snapshotExports: list(snapshotExport),
    genesisSigningDigest: str,
    tmKMSReservationIdentity: str,
    cosmosignerSigningDigest: str,
    cosmosignerAppliedDigest: str,
    cosmosignerPublicKey: str,
    cosmosignerMigration: obj({ desiredDigest: str, desiredPublicKey: str, phase: str, resetState: bool, rolloutObservedAt: str }, [
      'desiredDigest',
      'desiredPublicKey',
      'phase',
    ]),
    cosmosignerKeyImported: str,
    cosmosignerImportedKeyVersion: str,
    cosmosignerReplicas: int,
    cosmosignerValidatorTargeted: bool,
    cosmosignerStateStorageSize: str,
    cosmosignerStateStorageClassName: str,
    cosmosignerAtEstablishment: str,
    cosmosignerServingIdentity: str,
  },
  ['validator'],
)

export const chainNodeCrd = crd({
  group: GROUP,
  kind: 'ChainNode',
  plural: 'chainnodes',
  scope: 'Namespaced',
  spec: chainNodeSpec,
  status: chainNodeStatus,
  columns: [
    { name: 'Status', type: 'string', jsonPath: '.status.phase' },
    { name: 'IP', type: 'string', jsonPath: '.status.ip' },
    { name: 'Version', type: 'string', jsonPath: '.status.appVersion' },
    { name: 'ChainID', type: 'string', jsonPath: '.status.chainID' },
    { name: 'Validator', type: 'boolean', jsonPath: '.status.validator' },
    { name: 'BondStatus', type: 'string', jsonPath: '.status.validatorStatus' },
    { name: 'Jailed', type: 'boolean', jsonPath: '.status.jailed' },
    { name: 'DataUsage', type: 'string', jsonPath: '.status.dataUsage' },
    { name: 'LatestHeight', type: 'integer', jsonPath: '.status.latestHeight' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
})

/** A group of nodes in a ChainNodeSet: most of a ChainNode's spec, plus how many and how they are exposed. */
const nodeGroup: Schema = obj(
  {
    name: str,
    instances: int,
    ...podFields,
    peers: list(peer),
    expose,
    validator: open,
    cosmosigner,
    ignoreGroupOnDisruptionChecks: bool,
    inheritValidatorGasPrice: bool,
    snapshotNodeIndex: int,
    individualIngresses: open,
    individualGatewayRoutes: open,
    pdb,
  },
  ['name'],
)

const chainNodeSetSpec = obj(
  {
    app,
    genesis,
    nodes: list(nodeGroup),
    validator: obj({
      ...validatorCommon,
      ...podFields,
      pdb,
    }),
    cosmosigner,
    cosmoseed: open,
    ingresses: list(open),
    gatewayRoutes: list(open),
    deletionPolicy,
  },
  ['app', 'nodes'],
)

const namesList = strings

const chainNodeSetStatus = obj({
  phase: str,
  chainID: str,
  appVersion: str,
  latestHeight: int,
  instances: int,
  readyInstances: int,
  pubKey: str,
  validatorAddress: str,
  validatorStatus: str,
  genesisInitGenerated: bool,
  nodes: list(
    obj({ name: str, uid: str, group: str, id: str, address: str, port: int, public: bool, publicAddress: str, publicPort: int, seed: bool }, [
      'address',
      'id',
      'name',
      'port',
      'public',
      'seed',
    ]),
  ),
  seeds: list(obj({ name: str, id: str, publicAddress: str }, ['id', 'name'])),
  validators: list(obj({ name: str, uid: str, group: str, address: str, pubKey: str, status: str, init: bool, signingKeyDigest: str }, ['group', 'name'])),
  upgrades: list(upgradeStatus),
  cosmosigners: list(open),
  legacyIngressNameCollisions: namesList,
  legacyIngressNameCollisionsInitialized: bool,
  legacyReservedChildGroupNames: namesList,
  legacyReservedChildGroupNamesInitialized: bool,
  legacyServiceNameCollisions: namesList,
  legacyServiceNameCollisionsInitialized: bool,
  legacySignerServiceNames: namesList,
  legacySignerServiceNamesInitialized: bool,
})

export const chainNodeSetCrd = crd({
  group: GROUP,
  kind: 'ChainNodeSet',
  plural: 'chainnodesets',
  scope: 'Namespaced',
  spec: chainNodeSetSpec,
  status: chainNodeSetStatus,
  columns: [
    { name: 'Status', type: 'string', jsonPath: '.status.phase' },
    { name: 'Version', type: 'string', jsonPath: '.status.appVersion' },
    { name: 'ChainID', type: 'string', jsonPath: '.status.chainID' },
    { name: 'LatestHeight', type: 'integer', jsonPath: '.status.latestHeight' },
    { name: 'Instances', type: 'integer', jsonPath: '.status.instances' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyInstances' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ],
})

/** Which root (ChainNode or ChainNodeSet) holds a consensus key on a chain: one object per key, no status. */
export const consensusKeyReservationCrd = crd({
  group: GROUP,
  kind: 'ConsensusKeyReservation',
  plural: 'consensuskeyreservations',
  shortNames: ['ckr'],
  scope: 'Cluster',
  spec: obj({ chainID: str, publicKey: str, ownerUID: str, ownerKind: str, namespace: str, ownerName: str, claim: str }, [
    'chainID',
    'publicKey',
    'ownerUID',
    'ownerKind',
    'namespace',
    'ownerName',
    'claim',
  ]),
  columns: [
    { name: 'ChainID', type: 'string', jsonPath: '.spec.chainID' },
    { name: 'Owner', type: 'string', jsonPath: '.spec.ownerName' },
    { name: 'Namespace', type: 'string', jsonPath: '.spec.namespace' },
  ],
})

export const COSMOPILOT_CRDS = [chainNodeCrd, chainNodeSetCrd, consensusKeyReservationCrd]
