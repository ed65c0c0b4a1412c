import type { Finding } from '../engine/define-rule.js'
import type { RuleId } from '../engine/rule-ids.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { chainNodeEntries } from './chainnode.js'
import { collapse, inWindow } from './collapse.js'
import { configEntries } from './config.js'
import { eventEntries } from './events.js'
import { findingEntries } from './findings.js'
import { appLogEntries } from './logs.js'
import { operatorEntries } from './operator.js'
import { podEntries } from './pod.js'
import { storageEntries } from './storage.js'
import type { NodeTimeline, TimelineEntry, TimelineWindow } from './types.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** A window edge: a time, or a duration before the snapshot's "now". */
export type Bound = { at: string } | { ago: number }

export interface WindowRequest {
  since?: Bound
  until?: Bound
}

const resolve = (bound: Bound, now: string) => ('at' in bound ? new Date(Date.parse(bound.at)) : new Date(Date.parse(now) - bound.ago)).toISOString()

/** Lead-in before the restart or finding the default window starts at: what led up to it. */
export const DEFAULT_LEAD_IN_MS = 10 * 60_000
/** Window when nothing restarted and nothing was found. */
export const QUIET_WINDOW_MS = 3_600_000

/** Every dated thing the snapshot knows about a node, collapsed and ordered, before any window. */
export function allEntries(index: SnapshotIndex, node: ChainNode, findings: readonly Finding[]): TimelineEntry[] {
  const now = new Date(Date.parse(index.snapshot.collectedAt)).toISOString()
  return collapse([
    ...eventEntries(index, node),
    ...podEntries(index, node, now),
    ...configEntries(index, node, now),
    ...chainNodeEntries(node, now),
    ...storageEntries(index, node, now),
    ...operatorEntries(index, node, now),
    ...appLogEntries(index, node),
    ...findingEntries(findings, node, now),
  ])
}

/** The timeline of one node: "now" is the snapshot's collection time, so a bundle reads as it did when collected. */
export function buildTimeline(index: SnapshotIndex, node: ChainNode, findings: readonly Finding[], request: WindowRequest = {}): NodeTimeline {
  const now = new Date(Date.parse(index.snapshot.collectedAt)).toISOString()
  const entries = allEntries(index, node, findings)
  const window = chooseWindow(entries, now, request)
  const kept = entries.filter((entry) => inWindow(entry, window))
  return {
    node: { kind: 'ChainNode', namespace: node.metadata.namespace, name: node.metadata.name },
    now,
    window,
    entries: kept,
    outsideWindow: entries.length - kept.length,
  }
}

/**
 * The window asked for, or by default one that covers the last restart or the first finding,
 * whichever is earlier, with a lead-in; an hour when neither exists.
 */
export function chooseWindow(entries: readonly TimelineEntry[], now: string, request: WindowRequest): TimelineWindow {
  const until = request.until ? resolve(request.until, now) : now
  if (request.since) return { since: resolve(request.since, now), until }
  const restarts = entries.filter((e) => e.kind === 'pod-created' || e.kind === 'pod-recreated' || (e.kind === 'container-started' && /restart/.test(e.text)))
  const lastRestart = restarts.map((e) => Date.parse(e.first)).sort((a, b) => b - a)[0]
  const firstFinding = entries
    .filter((e) => e.source === 'finding')
    .map((e) => Date.parse(e.first))
    .sort((a, b) => a - b)[0]
  const anchors = [lastRestart, firstFinding].filter((t): t is number => t !== undefined)
  const since = anchors.length ? Math.min(...anchors) - DEFAULT_LEAD_IN_MS : Date.parse(until) - QUIET_WINDOW_MS
  return { since: new Date(Math.min(since, Date.parse(until))).toISOString(), until }
}

/** The last few entries up to and including a finding: what led up to it, for doctor's text output. */
export function leadUp(entries: readonly TimelineEntry[], ruleId: RuleId, count = 5): TimelineEntry[] {
  const at = entries.findIndex((e) => e.kind === `rule/${ruleId}`)
  if (at === -1) return []
  const before = entries.slice(0, at).filter((e) => e.source !== 'finding')
  return [...before.slice(-(count - 1)), entries[at]]
}
