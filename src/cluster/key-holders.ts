import type { ChainNode, Pod } from '../snapshot/kinds.js'
import { CHAINNODE_API } from '../snapshot/operator.js'
import { consensusAddressOf } from '../snapshot/signing.js'
import type { ChainFacts, CollectionError, KeySearch, KubeObject, ProbeRecord, Scope } from '../snapshot/types.js'
import { readStatus, rpcPort, rpcResults, type PodGet } from './chain-probe.js'
import { ApiError, type KubeClient } from './kube-client.js'
import { withoutManagedFields } from './lists.js'
import { PortForwardRefused } from './pod-http.js'
import { FROM_CACHE } from './targets.js'

/** Nodes outside the scope one search reads at most: a fleet of one chain costs this many /status reads, not one per node. */
export const MAX_KEY_SEARCH_NODES = 200
/** /status reads in flight at once (each a port-forward through the API server). */
const PARALLEL = 8

const chainIdOf = (node: ChainNode) => node.status?.chainID ?? node.spec?.genesis?.chainID ?? node.spec?.validator?.init?.chainID

/**
 * Every running node outside the scope on the chain of a validator in scope, with its /status: the nodes that
 * may present that validator's key. The whole cluster when the ChainNodes may be listed cluster-wide, else the
 * scope's namespace, with the reason. None for `-A` (every node is in scope) or a scope without a validator.
 */
export async function searchKeyHolders(
  client: KubeClient,
  scope: Scope,
  inScope: ChainNode[],
  get: PodGet,
  errors: CollectionError[],
): Promise<KeySearch | undefined> {
  const chains = new Set(inScope.filter((n) => n.spec?.validator).map(chainIdOf))
  chains.delete(undefined)
  if (scope.kind === 'all' || chains.size === 0) return undefined
  const namespace = scope.namespace ?? 'default'
  const notes: string[] = []
  let where: KeySearch['where'] = 'cluster'
  let listed: KubeObject[] = []
  try {
    listed = (await client.getJSON<{ items?: KubeObject[] }>(`/apis/${CHAINNODE_API}/chainnodes?${FROM_CACHE}`)).items ?? []
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    where = 'namespaces'
    notes.push(`${error.reason === 'forbidden' ? 'not allowed to list' : 'could not list'} ChainNodes cluster-wide (${error.status ?? error.reason})`)
    try {
      listed = (await client.getJSON<{ items?: KubeObject[] }>(`/apis/${CHAINNODE_API}/namespaces/${namespace}/chainnodes?${FROM_CACHE}`)).items ?? []
    } catch (inner) {
      if (!(inner instanceof ApiError)) throw inner
      errors.push({ what: `list chainnodes in ${namespace} (other holders of a validator key)`, namespace, reason: inner.reason, message: inner.message })
    }
  }
  const scoped = new Set(inScope.map((n) => `${n.metadata.namespace}/${n.metadata.name}`))
  const candidates = listed
    .map((obj) => withoutManagedFields({ ...obj, apiVersion: CHAINNODE_API, kind: 'ChainNode' }) as ChainNode)
    .filter((n) => !scoped.has(`${n.metadata.namespace}/${n.metadata.name}`) && chains.has(chainIdOf(n)))
  if (candidates.length > MAX_KEY_SEARCH_NODES) notes.push(`${MAX_KEY_SEARCH_NODES} of ${candidates.length} nodes of the chain read`)
  const nodes: ChainNode[] = []
  const probes: ProbeRecord[] = []
  const queue = candidates.slice(0, MAX_KEY_SEARCH_NODES)
  const worker = async () => {
    for (let node = queue.shift(); node; node = queue.shift()) {
      const record = await statusOf(client, node, get, notes)
      if (record) {
        nodes.push(node)
        probes.push(record)
      }
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, worker))
  return { where, ...(where === 'namespaces' ? { namespaces: [namespace] } : {}), notes, nodes, probes }
}

/** The /status of a node's Pod when it runs; undefined when it does not, or cannot be asked (said once in `notes`). */
async function statusOf(client: KubeClient, node: ChainNode, get: PodGet, notes: string[]): Promise<ProbeRecord | undefined> {
  const namespace = node.metadata.namespace!
  let pod: Pod
  try {
    pod = await client.getJSON<Pod>(`/api/v1/namespaces/${namespace}/pods/${node.metadata.name}`)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    if (error.reason !== 'not-found') noteOnce(notes, `could not read the Pods of other nodes (${error.reason})`)
    return undefined
  }
  if (pod.status?.phase !== 'Running') return undefined
  const port = rpcPort(pod)
  const facts: ChainFacts = { problems: [] }
  try {
    const [status] = await rpcResults(get, namespace, node.metadata.name, port, ['/status'], facts)
    const target = `pod/${node.metadata.name}:${port}`
    if (!status)
      return {
        kind: 'chain',
        namespace,
        pod: node.metadata.name,
        target,
        ok: false,
        detail: facts.problems[0] ?? 'no /status answer',
        at: new Date().toISOString(),
        chain: facts,
      }
    const read = readStatus(status, facts)
    return { kind: 'chain', namespace, pod: node.metadata.name, target, ok: true, detail: `height ${read.height}`, at: read.at, chain: facts }
  } catch (error) {
    if (!(error instanceof PortForwardRefused)) throw error
    noteOnce(notes, `not allowed to port-forward to other nodes (${error.status})`)
    return undefined
  }
}

const noteOnce = (notes: string[], note: string) => {
  if (!notes.includes(note)) notes.push(note)
}

/**
 * What of a search the snapshot keeps: the nodes presenting a key that a node in scope presents or holds as its
 * .status.pubKey. The others were read to find out, and have nothing to say about the nodes in scope.
 */
export function keptHolders(search: KeySearch, inScope: ChainNode[], records: ProbeRecord[]): KeySearch {
  const keys = new Set<string>()
  for (const record of records) if (record.chain?.validator) keys.add(record.chain.validator.address)
  for (const node of inScope) {
    const address = consensusAddressOf(node.status?.pubKey)
    if (address) keys.add(address)
  }
  const probes = search.probes.filter((p) => p.chain?.validator && keys.has(p.chain.validator.address))
  const held = new Set(probes.map((p) => `${p.namespace}/${p.pod}`))
  return { ...search, nodes: search.nodes.filter((n) => held.has(`${n.metadata.namespace}/${n.metadata.name}`)), probes }
}
