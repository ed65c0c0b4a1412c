import { incompleteError, usageError } from '../errors.js'
import { CHAINNODE_API } from '../snapshot/index.js'
import {
  allContainerStatuses,
  containerRole,
  mainContainerName,
  ownerSetName,
  podReady,
  podRestarts,
  signerTargetOf,
  usesVolumeSnapshots,
} from '../snapshot/node-layout.js'
import { SNAPSHOT_FORMAT_VERSION, type CollectionError, type KubeObject, type Scope, type Snapshot, type TableRow } from '../snapshot/types.js'
import type { Redactor } from '../snapshot/redact.js'
import { ApiError, type KubeClient } from './kube-client.js'
import { collectLogs, type LogOptions, type LogRequest } from './logs.js'
import { collectOperator } from './collect-operator.js'
import { CLUSTER_TARGETS, NAMESPACE_TARGETS, listPath, type ListTarget, type NodeNeed } from './targets.js'

/** Which pods get their logs read; 'auto' reads all for a few nodes and only unhealthy pods for a fleet. */
export type LogMode = 'all' | 'unhealthy' | 'none' | 'auto'
/** Above this many nodes, 'auto' reads only the logs of unhealthy pods so a fleet run stays fast. */
export const FLEET_LOG_THRESHOLD = 20

export interface CollectOptions {
  scope: Scope
  logs: LogOptions & { mode: LogMode }
  cliVersion: string
  contextName: string
  /** Masks secrets in each list and log as it arrives, so the masking overlaps the waits for the server. */
  redactor?: Redactor
}

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json'
const CHAINNODES = `/apis/${CHAINNODE_API}`

/**
 * Read everything about the nodes in scope in one pass. List-type reads happen once per namespace
 * and are shared by every node in it, so a fleet costs a constant number of lists plus its logs.
 * Reads start as soon as what they depend on is known: the lists of the node's namespace go out with
 * the ChainNode lookup, logs follow the Pod lists, so a run waits for two round trips, not four.
 */
export async function collectSnapshot(client: KubeClient, options: CollectOptions): Promise<Snapshot> {
  const started = Date.now()
  const errors: CollectionError[] = []
  const { scope, redactor } = options
  const found = findChainNodes(client, scope)
  const mask = (objects: KubeObject[]) => (redactor ? objects.map((o) => redactor.value(o)) : objects)
  const read = readerFor(client, errors, async (items) =>
    // Unrelated ConfigMaps (a genesis can be megabytes) are dropped before anything scans them.
    mask(items.some((o) => o.kind === 'ConfigMap') ? keepRelevant(items, (await found).nodes) : items),
  )
  const logOptions = redactor ? { ...options.logs, mask: (text: string) => redactor.text(text) } : options.logs
  // Lists only some nodes need wait for the nodes (and, for a signer, their Pods) and are read only then.
  const wanted: Wanted = async (need, namespace, podsOf) => {
    const nodes = (await found).nodes.filter((n) => namespace === undefined || n.metadata.namespace === namespace)
    if (need === 'volume-snapshots') return nodes.some(usesVolumeSnapshots)
    if (need === 'nodeset') return nodes.some((n) => ownerSetName(n) !== undefined)
    const pods = await podsOf()
    return nodes.some((n) =>
      signerTargetOf(
        n,
        pods.find((p) => p.metadata.name === n.metadata.name && p.metadata.namespace === n.metadata.namespace),
      ),
    )
  }
  const clusterWide = startLists(read, CLUSTER_TARGETS, [undefined], wanted)
  const knownNamespace = scope.kind === 'all' ? undefined : (scope.namespace ?? 'default')
  const namespaced = knownNamespace
    ? Promise.resolve(startLists(read, NAMESPACE_TARGETS, [knownNamespace], wanted))
    : found.then(({ nodes }) => startLists(read, NAMESPACE_TARGETS, [...new Set(nodes.map((n) => n.metadata.namespace!))], wanted))
  // An unknown node ends the run at once: the reads already sent must not surface as unhandled failures.
  for (const pending of [clusterWide.all, namespaced.then((lists) => lists.all)]) pending.catch(() => undefined)
  const { nodes, rows, sets } = await found

  // Logs go out as soon as the Pods they belong to are known, not after every list.
  const nodeLogs = namespaced
    .then((lists) => lists.of('Pod'))
    .then((pods) => collectLogs(client, nodeLogRequests(pods, nodes, options.logs), logOptions, errors))
  const operator = Promise.all([clusterWide.of('Deployment'), clusterWide.of('Pod')]).then(([deployments, pods]) =>
    collectOperator(client, read, {
      clusterWide: [...deployments, ...pods],
      nodes,
      nodeNamespaces: knownNamespace ? [knownNamespace] : undefined,
      logs: logOptions,
      errors,
    }),
  )
  const [namespaceObjects, clusterObjects, logs, operatorData] = await Promise.all([namespaced.then((lists) => lists.all), clusterWide.all, nodeLogs, operator])
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    collectedAt: new Date().toISOString(),
    cliVersion: options.cliVersion,
    source: { context: options.contextName, server: client.server },
    scope: options.scope,
    objects: keepRelevant(withoutDuplicates([...mask(nodes), ...mask(sets), ...namespaceObjects, ...operatorData.objects, ...clusterObjects]), nodes),
    chainNodeRows: rows,
    logs: [...logs, ...operatorData.logs],
    probes: [],
    collectionErrors: errors,
    stats: { requests: client.requestCount, durationMs: Date.now() - started },
    redactions: redactor?.count ?? 0,
  }
}

export type Reader = ReturnType<typeof readerFor>

interface Lists {
  all: Promise<KubeObject[]>
  /** The lists of one kind, to be awaited without waiting for the others. */
  of(kind: string): Promise<KubeObject[]>
}

/** Whether some node in a namespace (any node, for cluster-wide lists) has a need; `pods` are that namespace's. */
type Wanted = (need: NodeNeed, namespace: string | undefined, pods: () => Promise<KubeObject[]>) => Promise<boolean>

function startLists(read: Reader, targets: ListTarget[], namespaces: (string | undefined)[], wanted: Wanted): Lists {
  const flat = (pending: Promise<KubeObject[]>[]) => Promise.all(pending).then((found) => found.flat())
  const started = namespaces.flatMap((ns) => {
    const here: { kind: string; items: Promise<KubeObject[]> }[] = []
    const pods = () => flat(here.filter((l) => l.kind === 'Pod').map((l) => l.items))
    for (const target of targets) {
      const need = target.onlyFor
      here.push({ kind: target.kind, items: need ? wanted(need, ns, pods).then((yes) => (yes ? read(target, ns) : [])) : read(target, ns) })
    }
    return here
  })
  return { all: flat(started.map((l) => l.items)), of: (kind) => flat(started.filter((l) => l.kind === kind).map((l) => l.items)) }
}

function readerFor(client: KubeClient, errors: CollectionError[], prepare: (items: KubeObject[]) => Promise<KubeObject[]>) {
  const read = async (target: ListTarget, namespace?: string): Promise<KubeObject[]> => {
    const path = listPath(target, namespace)
    let list: { items?: KubeObject[] }
    try {
      list = await client.getJSON<{ items?: KubeObject[] }>(path)
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      const missing = target.optional && error.reason === 'not-found'
      if (!missing)
        errors.push({ what: `list ${target.plural}${namespace ? ` in ${namespace}` : ''}`, namespace, reason: error.reason, message: error.message })
      return target.fallback ? read(target.fallback, namespace) : []
    }
    const apiVersion = target.group === '/api/v1' ? 'v1' : target.group.replace(/^\/apis\//, '')
    return prepare(
      (list.items ?? []).map((item) => withoutManagedFields({ ...item, apiVersion: item.apiVersion ?? apiVersion, kind: item.kind ?? target.kind })),
    )
  }
  return read
}

/** managedFields say who wrote which field: large, never read by a rule, and not worth a bundle's bytes. */
function withoutManagedFields(obj: KubeObject): KubeObject {
  if (!('managedFields' in (obj.metadata ?? {}))) return obj
  const { managedFields: _managedFields, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown }
  return { ...obj, metadata }
}

interface FoundNodes {
  nodes: KubeObject[]
  rows: TableRow[]
  sets: KubeObject[]
}

async function findChainNodes(client: KubeClient, scope: Scope): Promise<FoundNodes> {
  const ns = scope.namespace ?? 'default'
  try {
    if (scope.kind === 'node')
      return fromTable(await client.getJSON(`${CHAINNODES}/namespaces/${ns}/chainnodes/${scope.name}?includeObject=Object`, TABLE_ACCEPT))
    const listPathFor = scope.kind === 'all' ? `${CHAINNODES}/chainnodes` : `${CHAINNODES}/namespaces/${ns}/chainnodes`
    const found = fromTable(await client.getJSON(`${listPathFor}?includeObject=Object`, TABLE_ACCEPT))
    if (scope.kind !== 'set') return found
    const set = await client.getJSON<KubeObject>(`${CHAINNODES}/namespaces/${ns}/chainnodesets/${scope.name}`)
    const owned = (node: KubeObject) =>
      node.metadata.ownerReferences?.some((ref) => ref.kind === 'ChainNodeSet' && ref.uid === set.metadata.uid) || node.metadata.labels?.nodeset === scope.name
    const nodes = found.nodes.filter(owned)
    return {
      nodes,
      rows: found.rows.filter((row) => nodes.some((n) => n.metadata.name === row.name)),
      sets: [{ ...set, apiVersion: CHAINNODE_API, kind: 'ChainNodeSet' }],
    }
  } catch (error) {
    throw explainLookupFailure(error, scope, ns)
  }
}

function fromTable(table: {
  columnDefinitions?: { name: string; type: string; priority?: number }[]
  rows?: { cells: unknown[]; object?: KubeObject }[]
}): FoundNodes {
  const columns = (table.columnDefinitions ?? []).map((c) => ({ name: c.name, type: c.type, priority: c.priority ?? 0 }))
  const nodes: KubeObject[] = []
  const rows: TableRow[] = []
  for (const row of table.rows ?? []) {
    if (!row.object) continue
    const node = withoutManagedFields({ ...row.object, apiVersion: CHAINNODE_API, kind: 'ChainNode' })
    nodes.push(node)
    rows.push({ namespace: node.metadata.namespace!, name: node.metadata.name, columns, cells: row.cells })
  }
  return { nodes, rows, sets: [] }
}

function explainLookupFailure(error: unknown, scope: Scope, ns: string): Error {
  if (!(error instanceof ApiError)) return error as Error
  const what = scope.kind === 'set' ? `chainnodeset "${scope.name}"` : `chainnode "${scope.name}"`
  if (error.reason === 'not-found') {
    // A missing object says `chainnodes.cosmopilot.voluzi.com "x" not found`; a missing API says anything else.
    if (!/"[^"]*" not found/.test(error.message)) {
      return usageError(
        'the ChainNode CRD (chainnodes.cosmopilot.voluzi.com/v1) is not installed in this cluster',
        'is this the cluster that runs the cosmopilot operator? check --context',
      )
    }
    return usageError(`${what} not found in namespace "${ns}"`, `list them with: kubectl get chainnodes -n ${ns} (or pass -n)`)
  }
  if (error.reason === 'forbidden') return incompleteError(`not allowed to read ChainNodes: ${error.message}`, 'grant the read-only role in deploy/rbac.yaml')
  if (error.reason === 'unauthorized')
    return incompleteError('the API server rejected the credentials (401 Unauthorized)', 'refresh the token or credentials of this context')
  return incompleteError(
    error.message,
    error.reason === 'tls' ? 'check the cluster CA in the kubeconfig' : 'check that the cluster is reachable (kubectl cluster-info)',
  )
}

/** Drop what no rule reads (genesis ConfigMaps can be megabytes) and Events about unrelated objects. */
function keepRelevant(objects: KubeObject[], nodes: KubeObject[]): KubeObject[] {
  const nodeNames = new Set(nodes.map((n) => `${n.metadata.namespace}/${n.metadata.name}`))
  const related = (ns: string | undefined, name: string) =>
    [...nodeNames].some((key) => {
      const [nodeNs, nodeName] = key.split('/')
      return nodeNs === ns && (name === nodeName || name.startsWith(`${nodeName}-`))
    })
  return objects.filter((obj) => {
    if (obj.kind === 'ConfigMap') return related(obj.metadata.namespace, obj.metadata.name) || obj.metadata.name.endsWith('-signer')
    return true
  })
}

function nodeLogRequests(pods: KubeObject[], nodes: KubeObject[], { mode: requested, roles }: CollectOptions['logs']): LogRequest[] {
  if (requested === 'none') return []
  const mode = requested === 'auto' ? (nodes.length > FLEET_LOG_THRESHOLD ? 'unhealthy' : 'all') : requested
  const requests: LogRequest[] = []
  for (const node of nodes) {
    const pod = pods.find((p) => p.metadata.namespace === node.metadata.namespace && p.metadata.name === node.metadata.name)
    if (!pod) continue
    if (mode === 'unhealthy' && podReady(pod) && podRestarts(pod) === 0 && node.status?.phase === 'Running') continue
    const main = mainContainerName(node, pod)
    for (const status of allContainerStatuses(pod)) {
      if (roles && !roles.has(containerRole(status.name, main))) continue
      const base = { namespace: pod.metadata.namespace!, pod: pod.metadata.name, container: status.name, main: status.name === main }
      requests.push({ ...base, previous: false })
      if ((status.restartCount ?? 0) > 0) requests.push({ ...base, previous: true })
    }
  }
  return requests
}

/** The operator's pods can come from two lists (cluster-wide by label, and the namespace of the nodes). */
function withoutDuplicates(objects: KubeObject[]): KubeObject[] {
  const seen = new Set<string>()
  return objects.filter((o) => {
    const key = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}
