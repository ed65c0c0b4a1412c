import path from 'node:path'
import { annotation, SnapshotIndex } from '../snapshot/index.js'
import { stateDir } from '../util/state-dir.js'
import { readStateFile, writeStateFile } from '../util/state-file.js'
import type { Observation, Snapshot } from '../snapshot/types.js'

const MAX_PER_NODE = 50

/** Where observations live: in the user's cache directory. */
export function historyFile(env = process.env): string {
  return path.join(stateDir(env), 'history.json')
}

type History = Record<string, Observation[]>
const key = (server: string, node: string) => `${server}|${node}`

/** What the snapshot shows now, one observation per ChainNode. */
export function observe(snapshot: Snapshot): Observation[] {
  const index = new SnapshotIndex(snapshot)
  return index.chainNodes().map((node) => {
    const pod = index.podOf(node)
    return {
      node: `${node.metadata.namespace}/${node.metadata.name}`,
      at: snapshot.collectedAt,
      podUid: pod?.metadata.uid,
      podCreated: pod?.metadata.creationTimestamp,
      podHash: pod?.metadata.annotations?.[annotation('config-hash')],
      configMapHash: index.configMapOf(node)?.metadata.annotations?.[annotation('config-hash')],
      generation: node.metadata.generation,
      podGeneration: pod?.metadata.annotations?.[annotation('chainnode-generation')],
    }
  })
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
  const history = readStateFile<History>(file, {})
  const now = observe(snapshot)
  const previous = now.flatMap((o) => history[key(snapshot.source.server, o.node)] ?? [])
  let changed = false
  for (const observation of now) {
    const list = history[key(snapshot.source.server, observation.node)] ?? []
    if (list.length === 0 || !same(list[list.length - 1], observation)) {
      history[key(snapshot.source.server, observation.node)] = [...list, observation].slice(-MAX_PER_NODE)
      changed = true
    }
  }
  if (changed) await writeStateFile(file, history)
  return { ...snapshot, observations: previous }
}
