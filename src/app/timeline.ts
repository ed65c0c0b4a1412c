import type { DoctorResult } from '../engine/doctor-result.js'
import type { Rule, RuleSettings } from '../engine/define-rule.js'
import type { RuleId } from '../engine/rule-ids.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'
import { allEntries, buildTimeline, leadUp, type Bound, type WindowRequest } from '../timeline/build.js'
import { parseDuration } from '../util/duration.js'
import { usageError } from '../util/errors.js'
import type { ClusterTimelines, TimelineEntry } from '../timeline/types.js'
import { diagnose } from './doctor.js'

/** Timelines of every node in the snapshots, with doctor's findings placed on them; pure, like diagnose. */
export function timelines(
  snapshots: Snapshot[],
  rules: readonly Rule[],
  request: WindowRequest,
  bundle?: string,
  settings: RuleSettings = {},
): ClusterTimelines[] {
  // One index per snapshot for the rules and the timeline: the Events, logs and Pods the rules looked up are not looked up again.
  const indexes = snapshots.map((snapshot) => new SnapshotIndex(snapshot))
  const result = diagnose(snapshots, rules, bundle, settings, indexes)
  return snapshots.map((snapshot, i) => {
    const cluster = result.clusters[i]
    const index = indexes[i]
    return {
      context: cluster.context,
      server: cluster.server,
      bundle,
      collectedAt: snapshot.collectedAt,
      nodes: index.chainNodes().map((node) => buildTimeline(index, node, cluster.report.findings, request)),
      incomplete: snapshot.collectionErrors.length > 0 || cluster.report.ruleErrors.length > 0,
    }
  })
}

/**
 * For doctor's text: per node ("namespace/name"), the entries leading up to its worst finding, for the nodes alone
 * in an incident (an incident of many nodes has no one story). `indexes` are the ones the rules ran on (one per
 * cluster): the Events and logs they looked up are not looked up again. Three entries: with its heading and the
 * table's header, five lines.
 */
export function leadUps(indexes: SnapshotIndex[], result: DoctorResult, count = 3): Map<string, TimelineEntry[]> {
  const out = new Map<string, TimelineEntry[]>()
  indexes.forEach((index, i) => {
    const { report, diagnosis } = result.clusters[i]
    if (report.findings.length === 0) return
    // The first incident of a lone node is its worst: its cause is what the lead-up leads to.
    const worst = new Map<string, RuleId>()
    for (const incident of diagnosis.incidents) {
      if (incident.nodes.length !== 1) continue
      const key = `${incident.nodes[0].namespace}/${incident.nodes[0].name}`
      if (!worst.has(key)) worst.set(key, incident.cause.ruleId)
    }
    for (const node of index.chainNodes()) {
      const key = `${node.metadata.namespace}/${node.metadata.name}`
      const ruleId = worst.get(key)
      if (ruleId) out.set(key, leadUp(allEntries(index, node, report.findings), ruleId, count))
    }
  })
  return out
}

/** --since / --until: an RFC 3339 time, or a duration before now (timeline and events take them). */
export function bound(text: string | undefined, flag: string): Bound | undefined {
  if (text === undefined) return undefined
  if (/^\d{4}-\d\d-\d\dT/.test(text)) {
    if (Number.isNaN(Date.parse(text)))
      throw usageError(`${flag} "${text}" is not a time`, 'use an RFC 3339 time like 2026-11-22T13:00:00Z, or a duration like 2h')
    return { at: text }
  }
  return { ago: parseDuration(text, flag) }
}
