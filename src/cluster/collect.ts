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
import { SNAPSHOT_FORMAT_VERSION, type CollectionError, type KubeObject, type Scope, type Snapshot } from '../snapshot/types.js'
import type { Redactor } from '../snapshot/redact.js'
import { findChainNodes } from './find-nodes.js'
import type { KubeClient } from './kube-client.js'
import { readerFor, startLists, type Wanted } from './lists.js'
import { collectLogs, type LogOptions, type LogRequest } from './logs.js'
import { collectOperator } from './collect-operator.js'
import { probeChains, type ChainProbeOptions } from './chain-probe.js'
import { CLUSTER_TARGETS, NAMESPACE_TARGETS } from './targets.js'

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
  /** Ask the running nodes themselves (RPC 26657, node-utils) while the other reads are under way. */
  chain?: ChainProbeOptions
}

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
  // The chain probe starts with the Pod list, so its sampling window overlaps the log and operator reads.
  const chain = options.chain
  const chainProbes = chain
    ? namespaced.then(async (lists) => probeChains(nodes, await lists.of('Pod'), lists.of('ConfigMap'), chain, errors))
    : Promise.resolve([])
  const [namespaceObjects, clusterObjects, logs, operatorData, probes] = await Promise.all([
    namespaced.then((lists) => lists.all),
    clusterWide.all,
    nodeLogs,
    operator,
    chainProbes,
  ])
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    collectedAt: new Date().toISOString(),
    cliVersion: options.cliVersion,
    source: { context: options.contextName, server: client.server },
    scope: options.scope,
    objects: keepRelevant(withoutDuplicates([...mask(nodes), ...mask(sets), ...namespaceObjects, ...operatorData.objects, ...clusterObjects]), nodes),
    chainNodeRows: rows,
    logs: [...logs, ...operatorData.logs],
    probes: redactor ? probes.map((probe) => ({ ...probe, detail: redactor.text(probe.detail) })) : probes,
    collectionErrors: errors,
    stats: { requests: client.requestCount, durationMs: Date.now() - started },
    redactions: redactor?.count ?? 0,
  }
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
