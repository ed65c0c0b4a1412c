/**
 * What this machine remembers of each cluster between runs, in the user's state directory: where the operator's
 * manager ran (so the next read asks for its log at once) and what each ChainNode looked like (so a restart or a
 * configuration change between two runs is seen). A live read recalls before it reads and remembers after.
 */
import { mkdirSync, readFileSync, promises as fsp } from 'node:fs'
import path from 'node:path'
import { SnapshotIndex } from '../snapshot/index.js'
import { stateDir } from '../util/state-dir.js'
import { writeFileAtomic } from '../util/fs-atomic.js'
import type { Observation, Scope, Snapshot } from '../snapshot/types.js'
import type { PodPort } from '../cluster/chain-probe.js'
import { configKeyDigests } from '../analysis/config-diff.js'
import { annotation } from '../snapshot/operator.js'

/** A JSON file of the state directory, or `empty` when it is missing or damaged: what is kept there only saves work. */
function readStateFile<T>(file: string, empty: T): T {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T
  } catch {
    return empty
  }
}

/** Write a JSON file of the state directory atomically; a read-only home must not fail the run that writes it. */
async function writeStateFile(file: string, value: unknown): Promise<void> {
  try {
    mkdirSync(path.dirname(file), { recursive: true })
    await writeFileAtomic(file, (tmp) => fsp.writeFile(tmp, JSON.stringify(value)))
  } catch {
    // Kept only to save work next time.
  }
}

/**
 * A list kept per cluster and namespace (or "*" for -A) in one file of the state directory: a run over every namespace
 * reads every release's manager, and the next run of one namespace must not ask for all of those logs again. Read
 * back with only the items `valid` accepts (the file is the user's to damage); written only when it changed.
 */
function scopedList<T>(name: string, valid: (item: unknown) => item is T) {
  const file = () => path.join(stateDir(), name)
  const keyOf = (server: string, scope: Scope) => `${server} ${scope.kind === 'all' ? '*' : (scope.namespace ?? '')}`
  return {
    last(server: string, scope: Scope): T[] {
      const items = readStateFile<Record<string, unknown>>(file(), {})[keyOf(server, scope)]
      return Array.isArray(items) ? items.filter(valid) : []
    },
    async remember(snapshot: Snapshot, items: T[], known: T[]): Promise<void> {
      if (JSON.stringify(items) === JSON.stringify(known)) return
      const all = readStateFile<Record<string, unknown>>(file(), {})
      await writeStateFile(file(), { ...all, [keyOf(snapshot.source.server, snapshot.scope)]: items })
    },
  }
}

const isRecord = (item: unknown): item is Record<string, unknown> => typeof item === 'object' && item !== null

/**
 * Where each cluster's operator manager ran at its last read: the next read asks for that log with its first requests
 * instead of a round trip later (cluster/collect.ts uses it only if the Pod is still the manager).
 */
export type OperatorPods = { namespace: string; pod: string }[]

const operatorPods = scopedList(
  'operator-pods.json',
  (p): p is OperatorPods[number] => isRecord(p) && typeof p.namespace === 'string' && typeof p.pod === 'string',
)

/**
 * The Pod ports the chain probe read at the last read of each cluster: the next read opens their port-forwards with
 * its first requests (status -o wide), instead of once the ChainNodes are listed. A Pod gone since costs one forward
 * nobody asks anything of. Nothing here changes what is shown.
 */
export type ProbedPorts = PodPort[]

const probedPorts = scopedList(
  'probed-ports.json',
  (p): p is PodPort =>
    isRecord(p) &&
    typeof p.namespace === 'string' &&
    typeof p.pod === 'string' &&
    Number.isInteger(p.port) &&
    Number(p.port) > 0 &&
    Number(p.port) < 65536 &&
    (p.forRules === undefined || p.forRules === true),
)

/**
 * The namespaces of the ChainNodes at the last read of each cluster across every namespace (-A): from ACROSS_FROM of
 * them on, the next read asks for the lists every namespace needs across the cluster with its first requests, instead
 * of once the ChainNodes are listed (cluster/collect.ts). Nothing here changes what is shown.
 */
const nodeNamespaces = scopedList('node-namespaces.json', (n): n is string => typeof n === 'string')

/** The manager Pods whose logs this snapshot read. */
const managerPodsRead = (snapshot: Snapshot): OperatorPods =>
  snapshot.logs.filter((log) => log.container === 'manager' && !log.error).map((log) => ({ namespace: log.namespace, pod: log.pod }))

/** The Pod ports the chain probe read in this snapshot: each node's RPC, and its node-utils where doctor read it. */
const chainPortsProbed = (snapshot: Snapshot): ProbedPorts =>
  snapshot.probes.flatMap((probe) => {
    const port = Number(/:(\d+)$/.exec(probe.target)?.[1])
    if (probe.kind !== 'chain' || !probe.pod || !port) return []
    const nodeUtils = probe.chain?.nodeUtils?.port
    return [
      { namespace: probe.namespace, pod: probe.pod, port },
      ...(nodeUtils ? [{ namespace: probe.namespace, pod: probe.pod, port: nodeUtils, forRules: true }] : []),
    ]
  })

/** What a live read starts from: the manager Pods and the Pod ports probed at the last read of this cluster and scope. */
export interface Recollection {
  operatorPods: OperatorPods
  probedPorts: ProbedPorts
  namespaces: string[]
}

export function recall(server: string, scope: Scope): Recollection {
  return {
    operatorPods: operatorPods.last(server, scope),
    probedPorts: probedPorts.last(server, scope),
    namespaces: scope.kind === 'all' ? nodeNamespaces.last(server, scope) : [],
  }
}

/** The namespaces of the snapshot's ChainNodes, sorted. */
const namespacesOf = (snapshot: Snapshot): string[] =>
  [...new Set(snapshot.objects.flatMap((o) => (o.kind === 'ChainNode' && o.metadata.namespace ? [o.metadata.namespace] : [])))].sort()

/** After a live read: remember where the manager ran, what was probed and what the nodes look like; the snapshot gains what earlier runs saw. */
export async function remember(snapshot: Snapshot, recalled: Recollection): Promise<Snapshot> {
  const probed = chainPortsProbed(snapshot)
  const podOf = (p: PodPort) => `${p.namespace}/${p.pod}`
  const probedPods = new Set(probed.map(podOf))
  // status -o wide reads no node-utils: the ports doctor read there are kept for its next run, while their Pods are probed.
  const withRules = probed.some((p) => p.forRules) ? probed : [...probed, ...recalled.probedPorts.filter((p) => p.forRules && probedPods.has(podOf(p)))]
  // One node or a selection of a namespace (kept under the namespace): the namespace's other Pods are kept too.
  const { scope } = snapshot
  const part = scope.kind === 'node' || scope.kind === 'set' || scope.selector !== undefined
  const ports = part ? [...recalled.probedPorts.filter((p) => !probedPods.has(podOf(p))), ...withRules] : withRules
  // A run that probed nothing (--no-probe) keeps the ports of the last run that did.
  await Promise.all([
    operatorPods.remember(snapshot, managerPodsRead(snapshot), recalled.operatorPods),
    ports.length > 0 ? probedPorts.remember(snapshot, ports, recalled.probedPorts) : undefined,
    snapshot.scope.kind === 'all' ? nodeNamespaces.remember(snapshot, namespacesOf(snapshot), recalled.namespaces) : undefined,
  ])
  return recordHistory(snapshot)
}

const MAX_PER_NODE = 50
/**
 * Nodes the file remembers, across every cluster read from this machine: the ones unchanged longest go first. Each
 * throw-away cluster (a new server address) adds its nodes, and every run reads the whole file, so it must not grow
 * for ever. Above any one fleet we measure (5,000 ChainNodes).
 */
const MAX_NODES = 10_000
/** Observations per node that keep their configuration's key fingerprints: enough to name what the latest change changed. */
const WITH_CONFIG_KEYS = 2

/** Where observations live: in the user's cache directory. */
export function historyFile(env = process.env): string {
  return path.join(stateDir(env), 'history.json')
}

type History = Record<string, Observation[]>
const key = (server: string, node: string) => `${server}|${node}`

/**
 * What the snapshot shows now, one observation per ChainNode, and its configuration's key fingerprints, computed when
 * asked: only an observation that is recorded keeps them, and parsing and hashing a fleet's configurations every run
 * for nodes that did not change was most of what remembering cost.
 */
function observeEach(snapshot: Snapshot): { observation: Observation; configKeys: () => Observation['configKeys'] }[] {
  const index = new SnapshotIndex(snapshot)
  return index.chainNodes().map((node) => {
    const pod = index.podOf(node)
    const configMap = index.configMapOf(node)
    const observation: Observation = {
      node: `${node.metadata.namespace}/${node.metadata.name}`,
      at: snapshot.collectedAt,
      podUid: pod?.metadata.uid,
      podCreated: pod?.metadata.creationTimestamp,
      podHash: pod?.metadata.annotations?.[annotation('config-hash')],
      configMapHash: configMap?.metadata.annotations?.[annotation('config-hash')],
      generation: node.metadata.generation,
      podGeneration: pod?.metadata.annotations?.[annotation('chainnode-generation')],
    }
    return { observation, configKeys: () => (configMap?.data ? configKeyDigests(configMap.data) : undefined) }
  })
}

/** What the snapshot shows now, one observation per ChainNode, with its configuration's key fingerprints. */
export function observe(snapshot: Snapshot): Observation[] {
  return observeEach(snapshot).map(({ observation, configKeys }) => ({ ...observation, configKeys: configKeys() }))
}

const same = (a: Observation, b: Observation) =>
  a.podUid === b.podUid &&
  a.podHash === b.podHash &&
  a.configMapHash === b.configMapHash &&
  a.generation === b.generation &&
  a.podGeneration === b.podGeneration

/**
 * Attach what earlier runs saw of these nodes to the snapshot, then record what this one sees
 * (only changes are kept, so the file stays small and "first seen" times stay true).
 */
export async function recordHistory(snapshot: Snapshot, file = historyFile()): Promise<Snapshot> {
  const now = observeEach(snapshot)
  const history = readStateFile<History>(file, {})
  const previous = now.flatMap(({ observation: o }) => history[key(snapshot.source.server, o.node)] ?? [])
  let changed = false
  for (const { observation: seen, configKeys } of now) {
    const list = history[key(snapshot.source.server, seen.node)] ?? []
    const last = list[list.length - 1]
    if (last && same(last, seen) && !last.configKeys) {
      // Recorded before fingerprints were kept: add them, keeping when it was first seen.
      const keys = configKeys()
      if (keys) {
        list[list.length - 1] = { ...last, configKeys: keys }
        changed = true
      }
    } else if (list.length === 0 || !same(last, seen)) {
      const observation = { ...seen, configKeys: configKeys() }
      const kept = [...list, observation].slice(-MAX_PER_NODE)
      // Older observations drop their fingerprints, so the file stays small on a fleet.
      history[key(snapshot.source.server, observation.node)] = kept.map((o, i) =>
        i < kept.length - WITH_CONFIG_KEYS && o.configKeys ? { ...o, configKeys: undefined } : o,
      )
      changed = true
    }
  }
  if (changed) await writeStateFile(file, keepRecent(history))
  return { ...snapshot, observations: previous }
}

/** The MAX_NODES nodes whose last recorded change is the latest (only changes are recorded, in time order). */
function keepRecent(history: History): History {
  const keys = Object.keys(history)
  if (keys.length <= MAX_NODES) return history
  const lastSeen = (k: string) => Date.parse(history[k]?.at(-1)?.at ?? '') || 0
  const kept = keys.sort((a, b) => lastSeen(b) - lastSeen(a)).slice(0, MAX_NODES)
  return Object.fromEntries(kept.map((k) => [k, history[k]]))
}
