import { configState, type ConfigVerdict } from '../analysis/config-state.js'
import { changedConfigKeys, configKeyDigests } from '../analysis/config-diff.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import type { Observation } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry, TimelineLevel } from './types.js'
import { annotation } from '../snapshot/operator.js'
import type { ChainNode } from '../snapshot/kinds.js'

const RESTART_TEXT: Partial<Record<ConfigVerdict, [TimelineLevel, string]>> = {
  'restarted-config': ['info', 'restart because the configuration changed'],
  'restarted-spec': ['info', 'restart because the Pod spec changed'],
  'restarted-unexpected': ['warning', 'restart with the same config-hash (unexpected)'],
}

/**
 * Configuration changes and the restarts they caused: the ConfigMap's and the Pod's config-hash in
 * the local history (one observation per change, "first seen" times), and the config-hash analysis
 * of the current Pod (pending, deferred, or which change restarted it).
 */
export function configEntries(index: SnapshotIndex, node: ChainNode, now: string): RawEntry[] {
  const key = `${node.metadata.namespace}/${node.metadata.name}`
  const pod = index.podOf(node)
  const configMap = index.configMapOf(node)
  const seen = index.observationsOf(node)
  const configMapHash = configMap?.metadata.annotations?.[annotation('config-hash')]
  // The configuration's fingerprints only where they name what changed since the last observation (keysText).
  const previous = seen.at(-1)
  const keysWanted = configMapHash !== undefined && previous?.configKeys !== undefined && previous.configMapHash !== configMapHash
  const current: Observation = {
    node: key,
    at: now,
    podUid: pod?.metadata.uid,
    podCreated: pod?.metadata.creationTimestamp,
    podHash: pod?.metadata.annotations?.[annotation('config-hash')],
    configMapHash,
    configKeys: keysWanted && configMap?.data ? configKeyDigests(configMap.data) : undefined,
  }
  const history = [...seen, current]
  const firstSeen = firstSeenTimes(history)
  const cmRef = { kind: 'ConfigMap', namespace: node.metadata.namespace, name: node.metadata.name }
  const podRef = { kind: 'Pod', namespace: node.metadata.namespace, name: node.metadata.name }
  const out: RawEntry[] = []
  const push = (at: string | undefined, entry: Omit<RawEntry, 'at' | 'source'>) => {
    const time = isoTime(at)
    if (time) out.push({ ...entry, at: time, source: 'config' })
  }
  for (let i = 1; i < history.length; i++) {
    const [before, after] = [history[i - 1], history[i]]
    if (before.configMapHash !== after.configMapHash && after.configMapHash) {
      push(firstSeen[i], {
        kind: 'configmap-hash',
        subject: cmRef,
        level: 'info',
        text: `ConfigMap config-hash ${before.configMapHash ?? '<none>'} -> ${after.configMapHash} (first seen by this tool)${keysText(before, after)}`,
      })
    }
    if (before.podUid && after.podUid && before.podUid !== after.podUid) {
      const changed = before.podHash !== after.podHash
      push(after.podCreated ?? after.at, {
        kind: 'pod-recreated',
        subject: podRef,
        level: changed ? 'info' : 'warning',
        text: `Pod recreated (was uid ${before.podUid}), config-hash ${before.podHash ?? '<none>'} -> ${after.podHash ?? '<none>'}: ${
          changed ? RESTART_TEXT['restarted-config']![1] : 'same config-hash'
        }`,
      })
    }
  }
  const state = configState(index, node, Date.parse(now))
  const restart = RESTART_TEXT[state.verdict]
  // With a history the pod-recreated entry above already says this; NodeRestarted Events alone need their own line.
  if (restart && state.detectedBy === 'events')
    push(state.restartedAt, { kind: 'config-restart', subject: podRef, level: restart[0], text: `Pod ${restart[1]}` })
  if (state.verdict === 'pending' || state.verdict === 'deferred') {
    let since = history.length - 1
    while (since > 0 && history[since - 1].configMapHash === current.configMapHash) since--
    push(current.configMapHash ? firstSeen[since] : now, {
      kind: 'config-pending',
      subject: cmRef,
      level: state.verdict === 'deferred' ? 'warning' : 'info',
      text: `ConfigMap config-hash ${state.configMapHash ?? '<none>'} differs from the Pod's ${state.podHash ?? '<none>'}: restart ${
        state.verdict === 'deferred' ? 'deferred by the disruption check' : 'pending'
      }`,
    })
  }
  return out
}

/**
 * The earliest sign of a config-hash from observation `from` on: an observation of the ConfigMap with
 * it, or the creation of a Pod that carries it (the operator renders the ConfigMap before the Pod), so
 * a change seen only after the restart it caused is still placed before that restart.
 */
function firstSeenTimes(history: Observation[]): (string | undefined)[] {
  // One pass from the end, keeping each hash's earliest time so far: a slice and a scan per change is quadratic
  // over 30,000 observations whose hash goes back and forth.
  const earliest = new Map<string, number>()
  const note = (hash: string | undefined, at: string | undefined) => {
    const time = at === undefined ? NaN : Date.parse(at)
    if (hash !== undefined && Number.isFinite(time)) earliest.set(hash, Math.min(earliest.get(hash) ?? Infinity, time))
  }
  const out: (string | undefined)[] = new Array(history.length)
  for (let i = history.length - 1; i >= 0; i--) {
    const o = history[i]
    note(o.configMapHash, o.at)
    if (o.podCreated) note(o.podHash, o.podCreated)
    const time = o.configMapHash === undefined ? undefined : earliest.get(o.configMapHash)
    out[i] = time === undefined ? undefined : new Date(time).toISOString()
  }
  return out
}

/** "; changed: config.toml:p2p.seeds" when both observations kept their configuration's fingerprints. */
function keysText(before: Observation, after: Observation): string {
  if (!before.configKeys || !after.configKeys) return ''
  const keys = changedConfigKeys(before.configKeys, after.configKeys)
  return keys.length ? `; changed: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ` and ${keys.length - 5} more` : ''}` : ''
}
