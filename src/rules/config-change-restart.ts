import { refOf } from '../snapshot/index.js'
import { configState, type ConfigVerdict } from '../analysis/config-state.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { reconcileHistory } from '../analysis/reconcile-log.js'
import { field } from '../engine/evidence.js'

interface Data {
  verdict: Exclude<ConfigVerdict, 'in-sync'>
  podHash?: string
  configMapHash?: string
  before?: string
  /** Pending on the generation alone (the hashes agree): the generation the Pod was built for, and the node's. */
  podGeneration?: string
  generation?: number
  /** The configuration keys that changed ("config.toml:p2p.seeds"), when the local history kept the earlier configuration. */
  changedKeys?: string[]
}

/** Keys named in a sentence; the rest counted (chainnode config-hash diff lists them all). */
const KEYS_NAMED = 5
const keyList = (keys: string[]) =>
  keys.length > KEYS_NAMED ? `${keys.slice(0, KEYS_NAMED).join(', ')} and ${keys.length - KEYS_NAMED} more` : keys.join(', ')
/** " (changed: a, b)" after a summary, when the keys are known. */
const changed = (d: Data) => (d.changedKeys?.length ? ` (changed: ${keyList(d.changedKeys)})` : '')

export default defineRule<Data>({
  id: 'config-change-restart',
  title: 'Pod restarted (or will restart) because the configuration changed',
  severity: 'info',
  severityNote: '(warning when deferred or unexpected)',
  specRow: 'Pod restarts after config change',
  logs: ['operator'],
  suppressedBy: ['signer-pubkey', 'signer-discovery-timeout', 'node-error', 'image-pull'],
  check({ index, node, pod, now }) {
    const state = configState(index, node, now)
    if (state.verdict === 'in-sync') return []
    const sameHash = state.podHash === state.configMapHash
    // A spec edit the operator refuses (or cannot get to) bumps the generation but no restart is coming: the
    // failing reconcile is the finding, reported by its own rule.
    if (state.verdict === 'pending' && sameHash) {
      const history = reconcileHistory(index, node)
      if (history.latestFailed && !history.onlyConflicts) return []
    }
    const hashes = [
      ...(pod ? [field(pod, 'annotations["cosmopilot.voluzi.com/config-hash"]', state.podHash)] : []),
      ...(index.configMapOf(node) ? [field(index.configMapOf(node)!, 'annotations["cosmopilot.voluzi.com/config-hash"]', state.configMapHash)] : []),
    ]
    return [
      {
        subject: refOf(node),
        severity: state.verdict === 'deferred' || state.verdict === 'restarted-unexpected' ? 'warning' : 'info',
        data: {
          verdict: state.verdict,
          podHash: state.podHash,
          configMapHash: state.configMapHash,
          before: state.before?.podHash,
          ...(state.verdict === 'pending' && sameHash ? { podGeneration: state.podGeneration, generation: state.generation } : {}),
          ...(state.changedKeys ? { changedKeys: state.changedKeys } : {}),
        },
        evidence: [...hashes, ...state.evidence],
      },
    ]
  },
  summary: (d) =>
    ({
      pending: `configuration changed${changed(d)}: the operator will restart the Pod to apply it`,
      deferred: `configuration changed${changed(d)}: the restart is deferred by the disruption check`,
      'restarted-config': `Pod was restarted because the configuration changed${changed(d)} (intentional)`,
      'restarted-spec': 'Pod was recreated because its spec changed (intentional)',
      'restarted-unexpected': 'Pod was restarted with the same configuration hash (unexpected)',
    })[d.verdict],
  cause: (d) =>
    d.verdict === 'pending' && d.podGeneration !== undefined
      ? `the Pod was built for generation ${d.podGeneration} of the ChainNode, which is now at ${d.generation ?? '<none>'} (the config-hash ${d.podHash ?? '<none>'} is unchanged): the operator applies the spec change next`
      : d.verdict === 'pending' || d.verdict === 'deferred'
        ? `the ConfigMap's config-hash ${d.configMapHash ?? '<none>'} differs from the Pod's ${d.podHash ?? '<none>'}`
        : d.verdict === 'restarted-unexpected'
          ? `the config-hash is the same before and after (${d.podHash ?? '<none>'}) and the operator logged no config or spec change: the node process may have exited or the Pod failed`
          : `the config-hash changed${d.before ? ` from ${d.before}` : ''} to ${d.podHash ?? '<none>'}: the operator applies configuration changes by recreating the Pod on purpose`,
  action: (d, on) =>
    d.verdict === 'restarted-unexpected'
      ? `Compare the config-hash before and after (chainnode config-hash ${nodeArgs(on)}), read the operator logs around the restart for the reconcile that triggered it, and the previous app logs (chainnode logs ${nodeArgs(on)} --previous).`
      : d.verdict === 'deferred'
        ? 'Nothing to do unless it lasts: the restart waits until the nodes with the same disruption labels are available again.'
        : `Nothing to fix: this restart is intentional. chainnode config-hash ${nodeArgs(on)} shows what changed.`,
})
