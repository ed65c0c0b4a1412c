import type { Evidence } from '../engine/define-rule.js'
import { operatorLogsAbout } from './operator-logs.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import type { Observation } from '../snapshot/types.js'
import { changedConfigKeys, configKeyDigests } from './config-diff.js'
import { eventEvidence } from '../engine/evidence.js'
import { annotation } from '../snapshot/operator.js'
import { eventTime } from '../snapshot/events.js'
import type { ChainNode, ConfigMap } from '../snapshot/kinds.js'

/** The operator logs a config change, a deferred recreation and a spec change at info level: routine lines are the story here. */
const ROUTINE = { anyLevel: true }

export type ConfigVerdict = 'in-sync' | 'pending' | 'deferred' | 'restarted-config' | 'restarted-spec' | 'restarted-unexpected'

export interface ConfigState {
  verdict: ConfigVerdict
  podHash?: string
  configMapHash?: string
  generation?: number
  podGeneration?: string
  /** Pod creation time when a restart was detected. */
  restartedAt?: string
  /** The observation from before the restart, when the local history has one. */
  before?: Observation
  /** How the restart was detected: by the local history (pod uid changed) or by operator Events. */
  detectedBy?: 'history' | 'events'
  /**
   * The keys ("config.toml:p2p.seeds") that differ between the configuration the old Pod ran (pending, deferred: the
   * Pod running now) and the ConfigMap now, when the local history kept that configuration's fingerprints.
   */
  changedKeys?: string[]
  evidence: Evidence[]
}

/** A restart older than this is history, not news. */
export const RECENT_RESTART_MS = 6 * 3_600_000
const AROUND_MS = 5 * 60_000

/**
 * Where a node's configuration stands, from what the cluster records: the config-hash on the Pod
 * against the one on ConfigMap <node> (the latest rendered configuration), the generation
 * annotations, restarts (pod uid changes in the local history, or NodeRestarted Events) and the
 * operator's log lines about the node. The operator's hash itself cannot be recomputed here.
 * Read once per index, node and time.
 */
export function configState(index: SnapshotIndex, node: ChainNode, now: number): ConfigState {
  // The rule, the timeline and status ask for the same one, and each answer reads the node's Events (200,000 of them
  // on a noisy node) and the operator's log.
  return index.once('config state', node, String(now), () => readConfigState(index, node, now))
}

function readConfigState(index: SnapshotIndex, node: ChainNode, now: number): ConfigState {
  const pod = index.podOf(node)
  const podHash = pod?.metadata.annotations?.[annotation('config-hash')]
  const configMapHash = index.configMapOf(node)?.metadata.annotations?.[annotation('config-hash')]
  const podGeneration = pod?.metadata.annotations?.[annotation('chainnode-generation')]
  const base = { podHash, configMapHash, generation: node.metadata.generation, podGeneration }
  // History is kept by address and name: what was seen before this ChainNode existed was another object of that name.
  const created = Date.parse(node.metadata.creationTimestamp ?? '')
  const observations = index.observationsOf(node).filter((o) => !(Date.parse(o.at) < created))
  const configMap = index.configMapOf(node)
  if (pod && podHash && configMapHash && podHash !== configMapHash) {
    const deferred = operatorLogsAbout(index, node, /delaying pod recreation/, 5, 50, ROUTINE)
    const changedKeys = keysChangedSince(observations, podHash, configMap)
    return { ...base, verdict: deferred.length ? 'deferred' : 'pending', evidence: deferred, ...(changedKeys ? { changedKeys } : {}) }
  }
  if (!pod) return { ...base, verdict: 'in-sync', evidence: [] }
  // When the Pod started: status.startTime is set by the kubelet; creationTimestamp is the fallback.
  const restartedAt: string | undefined = pod.status?.startTime ?? pod.metadata.creationTimestamp
  const recentPod = restartedAt !== undefined && now - Date.parse(restartedAt) < RECENT_RESTART_MS
  const before = recentPod ? [...observations].reverse().find((o) => o.podUid && o.podUid !== pod.metadata.uid) : undefined
  const restartEvents = index
    .eventsFor(node)
    .filter((e) => e.reason === 'NodeRestarted' && !/upgraded/i.test(e.message ?? '') && now - Date.parse(eventTime(e)) < RECENT_RESTART_MS)
  if (!before && restartEvents.length === 0) {
    const lagging = podGeneration !== undefined && node.metadata.generation !== undefined && Number(podGeneration) < node.metadata.generation
    return { ...base, verdict: lagging ? 'pending' : 'in-sync', evidence: [] }
  }
  const around = (at: string | undefined) => at !== undefined && restartedAt !== undefined && Math.abs(Date.parse(at) - Date.parse(restartedAt)) <= AROUND_MS
  const configLogs = operatorLogsAbout(index, node, /config changed|configuration changed/i, 10, 50, ROUTINE).filter((l) => !restartedAt || around(l.at))
  const specLogs = operatorLogsAbout(index, node, /pod spec changed/i, 10, 50, ROUTINE).filter((l) => !restartedAt || around(l.at))
  let verdict: ConfigVerdict
  if (before) verdict = before.podHash !== podHash ? 'restarted-config' : specLogs.length ? 'restarted-spec' : 'restarted-unexpected'
  else verdict = configLogs.length ? 'restarted-config' : specLogs.length ? 'restarted-spec' : 'restarted-unexpected'
  const context =
    verdict === 'restarted-unexpected'
      ? [
          ...operatorLogsAbout(index, node, /./, 50, 50, ROUTINE)
            .filter((l) => around(l.at))
            .slice(-8),
          ...[...index.eventsFor(node), ...index.eventsFor(pod)].filter((e) => around(eventTime(e))).map(eventEvidence),
        ]
      : []
  const changedKeys = verdict === 'restarted-config' && before?.podHash ? keysChangedSince(observations, before.podHash, configMap) : undefined
  return {
    ...base,
    verdict,
    restartedAt,
    before,
    detectedBy: before ? 'history' : 'events',
    ...(changedKeys ? { changedKeys } : {}),
    evidence: [
      ...(before
        ? [
            {
              kind: 'field' as const,
              source: 'local history',
              text: `before: pod ${before.podUid} config-hash ${before.podHash ?? '<none>'} (seen ${before.at})`,
              at: before.at,
            },
          ]
        : []),
      ...restartEvents.map(eventEvidence),
      ...configLogs,
      ...specLogs,
      ...context,
    ],
  }
}

/**
 * The keys that differ between the configuration rendered with config-hash `hash` (the last time the local history
 * saw the ConfigMap at that hash) and the ConfigMap now; undefined when the history kept no fingerprints of it.
 */
function keysChangedSince(observations: Observation[], hash: string, configMap: ConfigMap | undefined): string[] | undefined {
  const then = [...observations].reverse().find((o) => o.configKeys && o.configMapHash === hash)
  const now = configMap?.data ? configKeyDigests(configMap.data) : undefined
  if (!then?.configKeys || !now) return undefined
  return changedConfigKeys(then.configKeys, now)
}
