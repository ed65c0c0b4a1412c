import type { DoctorResult } from '../engine/doctor-result.js'
import type { Rule } from '../engine/define-rule.js'
import type { RuleId } from '../rules/ids.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'
import { allEntries, buildTimeline, leadUp, type WindowRequest } from '../timeline/build.js'
import type { ClusterTimelines, TimelineEntry } from '../timeline/types.js'
import { diagnose } from './doctor.js'
import { groupFindings } from '../engine/group-findings.js'

/** Timelines of every node in the snapshots, with doctor's findings placed on them; pure, like diagnose. */
export function timelines(snapshots: Snapshot[], rules: readonly Rule[], request: WindowRequest, bundle?: string): ClusterTimelines[] {
  // One index per snapshot for the rules and the timeline: the Events, logs and Pods the rules looked up are not looked up again.
  const indexes = snapshots.map((snapshot) => new SnapshotIndex(snapshot))
  const result = diagnose(snapshots, rules, bundle, {}, indexes)
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
 * For doctor's text: per node ("namespace/name"), the entries leading up to its worst finding. `indexes` are the
 * ones the rules ran on (one per cluster): the Events and logs they looked up are not looked up again.
 */
export function leadUps(indexes: SnapshotIndex[], result: DoctorResult, count = 5): Map<string, TimelineEntry[]> {
  const out = new Map<string, TimelineEntry[]>()
  indexes.forEach((index, i) => {
    const findings = result.clusters[i].report.findings
    if (findings.length === 0) return
    // Findings are sorted worst first: the first of a node is its worst. Only the nodes a report shows a
    // lead-up for (one per group of look-alike findings) are built, not every node of a fleet.
    const worst = new Map<string, RuleId>()
    for (const f of findings) if (!worst.has(`${f.node.namespace}/${f.node.name}`)) worst.set(`${f.node.namespace}/${f.node.name}`, f.ruleId)
    const shown = new Set(groupFindings(result.clusters[i].report).map((g) => `${g.example.node.namespace}/${g.example.node.name}`))
    for (const node of index.chainNodes()) {
      const key = `${node.metadata.namespace}/${node.metadata.name}`
      const ruleId = worst.get(key)
      if (ruleId && shown.has(key)) out.set(key, leadUp(allEntries(index, node, findings), ruleId, count))
    }
  })
  return out
}
