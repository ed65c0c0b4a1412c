import type { ObjectRef } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { annotation } from '../snapshot/operator.js'
import type { ChainNode } from '../snapshot/kinds.js'

/**
 * What the ChainNode's own status and annotations date: its creation, condition transitions, the last
 * PVC snapshot, and the upgrades it lists (those carry no time: they are shown as of collection).
 */
export function chainNodeEntries(node: ChainNode, now: string): RawEntry[] {
  const subject: ObjectRef = { kind: 'ChainNode', namespace: node.metadata.namespace, name: node.metadata.name }
  const out: RawEntry[] = []
  const push = (at: string | undefined, kind: string, level: RawEntry['level'], text: string) => {
    const time = isoTime(at)
    if (time) out.push({ at: time, source: 'chainnode', kind, subject, level, text })
  }
  push(node.metadata.creationTimestamp, 'created', 'normal', 'ChainNode created')
  for (const condition of node.status?.conditions ?? []) {
    const why = condition.reason ? ` (${condition.reason}${condition.message ? `: ${condition.message}` : ''})` : ''
    push(
      condition.lastTransitionTime ?? undefined,
      `condition/${condition.type}`,
      condition.status === 'True' ? 'normal' : 'info',
      `condition ${condition.type}=${condition.status}${why}`,
    )
  }
  const lastSnapshot = compactUtc(node.metadata.annotations?.[annotation('last-pvc-snapshot')])
  push(lastSnapshot, 'pvc-snapshot', 'normal', 'last PVC snapshot taken (annotation last-pvc-snapshot)')
  if (node.metadata.annotations?.[annotation('snapshotting-pvc')] === 'true')
    push(now, 'snapshotting', 'info', 'PVC snapshot in progress (annotation snapshotting-pvc=true)')
  for (const upgrade of node.status?.upgrades ?? []) {
    const level = /error|fail/i.test(upgrade.status ?? '') ? 'error' : 'info'
    push(
      now,
      'upgrade',
      level,
      `upgrade at height ${upgrade.height ?? '?'} to ${upgrade.image ?? '?'}: ${upgrade.status ?? '?'} (from ${upgrade.source ?? '?'}, as of collection)`,
    )
  }
  return out
}

/** The operator writes last-pvc-snapshot as UTC YYYYMMDDhhmmss. */
function compactUtc(text: string | undefined): string | undefined {
  const match = text ? /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(text) : null
  return match ? `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}Z` : undefined
}
