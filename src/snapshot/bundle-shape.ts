import type { Snapshot } from './types.js'

/**
 * The shapes of a bundle's JSON files, checked before anything reads them: a wrong shape becomes one
 * line naming the file and the field, not a TypeError deep in a rule. Lists are walked with loops, so
 * a list of any length is checked without deep recursion (nesting is as deep as the shape, no deeper).
 */
export type Shape = (value: unknown, at: string) => string | undefined

const describe = (value: unknown): string => {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 30 ? `${value.slice(0, 30)}…` : value)}`
  return `${typeof value} ${String(value)}`
}

const expect =
  (what: string, test: (value: unknown) => boolean): Shape =>
  (value, at) =>
    test(value) ? undefined : `${at || 'the file'} should be ${what}, not ${describe(value)}`

export const string = expect('a string', (v) => typeof v === 'string')
export const number = expect('a number', (v) => typeof v === 'number' && Number.isFinite(v))
export const boolean = expect('true or false', (v) => typeof v === 'boolean')
export const positiveInteger = expect('a positive whole number', (v) => typeof v === 'number' && Number.isInteger(v) && v > 0)
/** A time the tool computes with (a collection time, an observation): RFC 3339 that Date can read, no other text. */
export const time = expect('a time (RFC 3339)', (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT/.test(v) && Number.isFinite(Date.parse(v)))
export const anything: Shape = () => undefined
export const oneOf = (...choices: string[]): Shape => expect(`one of ${choices.join(', ')}`, (v) => typeof v === 'string' && choices.includes(v))

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)

/** An object with these fields; a field whose name ends in "?" may be absent (or null). */
export function object(fields: Record<string, Shape>): Shape {
  const entries = Object.entries(fields).map(([key, shape]) => ({ key: key.replace(/\?$/, ''), optional: key.endsWith('?'), shape }))
  return (value, at) => {
    if (!isObject(value)) return `${at || 'the file'} should be an object, not ${describe(value)}`
    for (const { key, optional, shape } of entries) {
      const field = value[key]
      if (optional && (field === undefined || field === null)) continue
      const problem = field === undefined ? `${at ? `${at}.` : ''}${key} is missing` : shape(field, at ? `${at}.${key}` : key)
      if (problem) return problem
    }
    return undefined
  }
}

export function list(item: Shape): Shape {
  return (value, at) => {
    if (!Array.isArray(value)) return `${at || 'the file'} should be a list, not ${describe(value)}`
    for (let i = 0; i < value.length; i++) {
      const problem = item(value[i], `${at}[${i}]`)
      if (problem) return problem
    }
    return undefined
  }
}

export function mapOf(item: Shape): Shape {
  return (value, at) => {
    if (!isObject(value)) return `${at || 'the file'} should be an object, not ${describe(value)}`
    for (const [key, inner] of Object.entries(value)) {
      const problem = item(inner, `${at}[${JSON.stringify(key)}]`)
      if (problem) return problem
    }
    return undefined
  }
}

const container = object({ name: string, 'image?': string, 'env?': list(object({ name: string, 'value?': string })) })
const containerStatus = object({ name: string, 'restartCount?': number, 'ready?': boolean, 'image?': string })

/** What rules and renderers take for granted about every object; the rest they read defensively. */
export const kubeObject: Shape = object({
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
  'spec?': object({
    'containers?': list(container),
    'initContainers?': list(container),
  }),
  'status?': object({
    'containerStatuses?': list(containerStatus),
    'initContainerStatuses?': list(containerStatus),
    'conditions?': list(object({ type: string, 'status?': string })),
  }),
  'message?': string,
  'reason?': string,
  'type?': string,
  'count?': number,
  'involvedObject?': object({ 'kind?': string, 'name?': string, 'namespace?': string, 'uid?': string }),
  'regarding?': object({ 'kind?': string, 'name?': string, 'namespace?': string, 'uid?': string }),
})

const scope = object({ kind: oneOf('node', 'set', 'namespace', 'all'), 'namespace?': string, 'name?': string })
const collectionError = object({ what: string, 'namespace?': string, reason: string, message: string })
const chainSample = { at: string, height: number, 'blockTime?': string, catchingUp: boolean }
/** What the chain probe measured (types.ts ChainFacts): rules read it as is, so its shape is checked. */
const chainFacts = object({
  'status?': object({ ...chainSample, earliestHeight: number, network: string, nodeId: string }),
  'resample?': object(chainSample),
  'peers?': object({ at: string, total: number, inbound: number, outbound: number, list: list(object({ id: string, address: string, outbound: boolean })) }),
  'nodeUtils?': object({ port: number, at: string, 'latestHeight?': number, 'stateSyncing?': boolean, problems: list(string) }),
  'stateSync?': object({
    'trustHeight?': number,
    'trustHash?': string,
    servers: list(object({ url: string, at: string, 'latestHeight?': number, 'hashAtTrustHeight?': string, 'problem?': string })),
  }),
  problems: list(string),
})

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
  }),
  resources: list(kubeObject),
  tables: list(object({ namespace: string, name: string, columns: list(object({ name: string, type: string, 'priority?': number })), cells: list(anything) })),
  logIndex: list(object({ namespace: string, pod: string, container: string, previous: boolean, 'truncated?': boolean, 'error?': string, 'file?': string })),
  probes: list(
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
  ),
  errors: list(collectionError),
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
  redacted: boolean
  redactions: number
  stats: Snapshot['stats']
}
