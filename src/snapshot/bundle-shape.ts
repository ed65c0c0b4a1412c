import type { KubeObject, Snapshot } from './types.js'
import { KIND_SHAPES } from './kinds.js'
import { anything, boolean, list, mapOf, nullable, number, object, oneOf, positiveInteger, string, time, type Shape } from './shape.js'

/** What rules and renderers take for granted about every object; kinds.ts adds what they read of each kind. */
export const kubeObject = object({
  'apiVersion?': string,
  kind: string,
  metadata: object({
    name: string,
    'namespace?': string,
    'uid?': string,
    'creationTimestamp?': string,
    'deletionTimestamp?': string,
    'labels?': mapOf(string),
    'annotations?': mapOf(string),
    'ownerReferences?': list(object({ kind: string, name: string, 'uid?': string })),
  }),
})

/** Why an object does not have the shape kinds.ts declares for its kind (its view would be untrue), if it does not. */
export function kindProblem(obj: KubeObject): string | undefined {
  return Object.hasOwn(KIND_SHAPES, obj.kind) ? KIND_SHAPES[obj.kind as keyof typeof KIND_SHAPES](obj, '') : undefined
}

/** The shapes of a bundle's JSON files (shape.ts), checked before anything reads them. */
const scope = object({ kind: oneOf('node', 'set', 'namespace', 'all'), 'namespace?': string, 'name?': string, 'selector?': string })
const collectionError = object({ what: string, 'namespace?': string, reason: string, message: string })
const chainSample = { at: string, height: number, 'blockTime?': string, catchingUp: boolean }
/** What the Cosmos SDK modules answered (types.ts CosmosReading). */
const cosmosReading = object({
  at: string,
  source: string,
  'height?': number,
  'blockTimeMs?': number,
  'prefix?': string,
  'slashing?': object({
    signedBlocksWindow: number,
    minSignedPerWindow: number,
    downtimeJailSeconds: number,
    'slashFractionDowntime?': number,
    'slashFractionDoubleSign?': number,
  }),
  'upgradePlan?': object({ name: string, height: number, info: string }),
  'proposals?': list(object({ id: string, title: string, 'votingStartTime?': string, 'votingEndTime?': string, expedited: boolean })),
  'proposalsTotal?': number,
  'validator?': object({
    consensusAddress: string,
    'valcons?': string,
    'valoper?': string,
    'valoperFrom?': oneOf('status', 'chain'),
    'account?': string,
    'signingInfo?': object({
      address: string,
      startHeight: number,
      indexOffset: number,
      missedBlocksCounter: number,
      'jailedUntil?': string,
      tombstoned: boolean,
    }),
    'staking?': object({
      operatorAddress: string,
      jailed: boolean,
      status: oneOf('bonded', 'unbonding', 'unbonded', 'unspecified'),
      tokens: string,
      moniker: string,
    }),
    'votes?': mapOf(nullable(list(string))),
  }),
  unknown: mapOf(string),
  requests: number,
})
/** What the chain probe measured (types.ts ChainFacts): rules read it as is, so its shape is checked. */
const chainFacts = object({
  'status?': object({ ...chainSample, earliestHeight: number, network: string, nodeId: string }),
  'resample?': object(chainSample),
  'stale?': boolean,
  'runningSince?': string,
  'stuckInLog?': object({ source: string, height: number, since: string, at: string, text: string }),
  'peers?': object({ at: string, total: number, inbound: number, outbound: number, list: list(object({ id: string, address: string, outbound: boolean })) }),
  'nodeUtils?': object({ port: number, at: string, 'latestHeight?': number, 'stateSyncing?': boolean, problems: list(string) }),
  'stateSync?': object({
    'trustHeight?': number,
    'trustHash?': string,
    servers: list(object({ url: string, at: string, 'latestHeight?': number, 'hashAtTrustHeight?': string, 'problem?': string })),
  }),
  'validator?': object({ address: string, votingPower: number }),
  'cosmos?': cosmosReading,
  problems: list(string),
})
const probes = list(
  object({
    kind: oneOf('pprof', 'signer-http', 'signer-gate', 'chain'),
    namespace: string,
    pod: string,
    target: string,
    ok: boolean,
    detail: string,
    at: string,
    'chain?': chainFacts,
    'couldNotRun?': boolean,
  }),
)

export const SHAPES = {
  manifest: object({
    kind: string,
    formatVersion: positiveInteger,
    collectedAt: time,
    'cliVersion?': string,
    'context?': string,
    'server?': string,
    scope: scope,
    'redactions?': number,
    'stats?': object({ requests: number, durationMs: number }),
    'leftOut?': list(collectionError),
    'redactionsByFile?': mapOf(mapOf(number)),
  }),
  resources: list(kubeObject),
  tables: list(object({ namespace: string, name: string, columns: list(object({ name: string, type: string, 'priority?': number })), cells: list(anything) })),
  logIndex: list(object({ namespace: string, pod: string, container: string, previous: boolean, 'truncated?': boolean, 'error?': string, 'file?': string })),
  probes,
  errors: list(collectionError),
  keySearch: object({ where: oneOf('cluster', 'namespaces'), 'namespaces?': list(string), notes: list(string), nodes: list(kubeObject), probes }),
  history: list(
    object({ node: string, at: time, 'podUid?': string, 'podHash?': string, 'configMapHash?': string, 'podCreated?': string, 'configKeys?': mapOf(string) }),
  ),
} satisfies Record<string, Shape>

/** What a bundle's manifest.json holds. */
export const BUNDLE_KIND = 'chainnode-bundle'

export interface BundleManifest {
  kind: typeof BUNDLE_KIND
  formatVersion: number
  createdAt: string
  collectedAt: string
  cliVersion: string
  context: string
  server: string
  scope: Snapshot['scope']
  collected: { kinds: Record<string, number>; logs: number; chainNodes: string[] }
  failed: Snapshot['collectionErrors']
  /** What the bundle does not carry (a log over the size limit, a container that did not answer), with the reason. */
  leftOut?: Snapshot['collectionErrors']
  redacted: boolean
  redactions: number
  /** Redactions by file and pattern name (counts only, never the values). */
  redactionsByFile?: Record<string, Record<string, number>>
  stats: Snapshot['stats']
}
