import type { ConfigChange, ConfigComparison, ConfigWatchEvent } from '../analysis/config-diff.js'
import type { Palette } from './palette.js'
import type { ConfigState, ConfigVerdict } from '../analysis/config-state.js'
import type { Observation } from '../snapshot/types.js'
import { columns, describeBlock } from './columns.js'
import { visible, visibleOrNone } from './visible.js'

export const VERDICT_TEXT: Record<ConfigVerdict, string> = {
  'in-sync': 'in sync: the Pod runs the latest rendered configuration',
  pending: 'configuration changed: restart pending',
  deferred: 'configuration changed: restart deferred by the disruption check',
  'restarted-config': 'restarted because the configuration changed (intentional)',
  'restarted-spec': 'restarted because the Pod spec changed (intentional)',
  'restarted-unexpected': 'restarted with the same config-hash (unexpected)',
}

const MEANING: Record<ConfigVerdict, 'ok' | 'info' | 'warning'> = {
  'in-sync': 'ok',
  pending: 'info',
  deferred: 'warning',
  'restarted-config': 'info',
  'restarted-spec': 'info',
  'restarted-unexpected': 'warning',
}

export function renderConfigHash(node: string, state: ConfigState, history: Observation[], changes: ConfigChange[] | undefined, palette: Palette): string {
  const out = [
    palette.paint('subject', `ChainNode ${visible(node)}`),
    describeBlock(
      [
        ['Verdict', palette.paint(MEANING[state.verdict], VERDICT_TEXT[state.verdict])],
        ['Pod config-hash', visibleOrNone(state.podHash)],
        ['ConfigMap hash', visibleOrNone(state.configMapHash)],
        ['Generation', visible(`${state.generation ?? '<none>'} (Pod annotation ${state.podGeneration ?? '<none>'})`)],
        ...(state.restartedAt
          ? ([
              ['Restarted', `${visible(state.restartedAt)} (detected by ${state.detectedBy === 'history' ? 'the local history' : 'NodeRestarted events'})`],
            ] as [string, string][])
          : []),
        ...(state.before
          ? ([['Before', visible(`config-hash ${state.before.podHash ?? '<none>'}, Pod ${state.before.podUid}, seen ${state.before.at}`)]] as [
              string,
              string,
            ][])
          : []),
      ],
      2,
    ),
  ]
  if (changes) out.push('Configuration changes:', renderChanges(changes))
  if (history.length) {
    out.push(
      'History (first seen):',
      columns(
        ['seen', 'pod', 'pod hash', 'configmap hash', 'generation'],
        history.map((o) =>
          [o.at, o.podUid ?? '<none>', o.podHash ?? '<none>', o.configMapHash ?? '<none>', `${o.generation ?? ''}/${o.podGeneration ?? ''}`].map(visible),
        ),
      )
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n'),
    )
  }
  if (state.evidence.length) {
    out.push('Evidence:', ...state.evidence.map((e) => `  ${e.at ? `${visible(e.at)}  ` : ''}${palette.paint('muted', visible(e.source))}: ${visible(e.text)}`))
  }
  return out.join('\n')
}

const show = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value))

export function renderChanges(changes: ConfigChange[]): string {
  if (changes.length === 0) return '  (no configuration keys changed)'
  return changes
    .map((c) => {
      const where = `${c.file}: ${c.path}`
      if (c.kind === 'added') return `  + ${where}${c.after === undefined ? '' : ` = ${show(c.after)}`}`
      if (c.kind === 'removed') return `  - ${where}${c.before === undefined ? '' : ` (was ${show(c.before)})`}`
      return `  ~ ${where}: ${show(c.before)} -> ${show(c.after)}`
    })
    .map(visible)
    .join('\n')
}

/** config-hash diff: the hashes, the keys that changed, and whether the Pod was recreated between the two. */
export function renderConfigDiff(comparison: ConfigComparison): string {
  const { node, configHash, pod, restartFollowed, changes } = comparison
  // Names, hashes and uids come from bundles: shown, not obeyed, like every value a renderer prints.
  const [from, to] = [visibleOrNone(configHash.before) ?? '<none>', visibleOrNone(configHash.after) ?? '<none>']
  return [
    `ChainNode ${visible(node)}: config-hash ${from} -> ${to}`,
    renderChanges(changes),
    restartFollowed
      ? `A restart followed: Pod ${visible(pod.before)} -> ${visible(pod.after)}.`
      : `No restart: the Pod is the same (${visibleOrNone(pod.after) ?? '<none>'}).`,
  ].join('\n')
}

/** config-hash --watch: one event as the lines it prints, each stamped to the second (UTC). */
export function renderConfigWatchEvent(event: ConfigWatchEvent): string {
  if (event.kind === 'watching') return `watching Pod and ConfigMap ${event.namespace}/${event.name} (Ctrl-C to stop)`
  const stamp = event.at.replace(/\.\d+Z$/, 'Z')
  const hashes = (e: { hashBefore?: string; hashAfter?: string }) => `config-hash ${e.hashBefore ?? '<none>'} -> ${e.hashAfter ?? '<none>'}`
  switch (event.kind) {
    case 'configmap-deleted':
      return `${stamp}  ConfigMap ${event.name} deleted`
    case 'configmap-changed': {
      const head =
        event.hashBefore !== event.hashAfter
          ? `${stamp}  ConfigMap ${event.name}: ${hashes(event)} (the operator will restart the Pod)`
          : `${stamp}  ConfigMap ${event.name}: data changed, config-hash unchanged (no restart: peer or state-sync settings)`
      return event.changes.length ? `${head}\n${renderChanges(event.changes)}` : head
    }
    case 'pod-deleted':
      return `${stamp}  Pod ${event.name} deleted (uid ${event.uid})`
    case 'pod-patched':
      return `${stamp}  Pod ${event.name}: ${hashes(event)} (patched in place)`
    case 'pod-recreated': {
      const verdict = event.hashAfter !== event.hashBefore ? 'restart because the configuration changed (intentional)' : 'same config-hash: unexpected restart'
      return `${stamp}  Pod ${event.name} recreated (uid ${event.uid}), ${hashes(event)}: ${verdict}`
    }
  }
}
