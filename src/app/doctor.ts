import type { ClusterReport, DoctorResult } from '../engine/doctor-result.js'
import { runRules, runRulesYielding } from '../engine/run-rules.js'
import { usageError } from '../util/errors.js'
import { isRuleId, RULES, type RuleId } from '../rules/index.js'
import type { Rule, RuleSettings } from '../engine/define-rule.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { diagnosisOf, explainLinksOf } from '../engine/diagnosis.js'
import type { LogRole } from '../snapshot/node-layout.js'
import type { Snapshot } from '../snapshot/types.js'

export interface RuleFilter {
  only?: readonly string[]
  skip?: readonly string[]
}

/** The rules --rule and --skip-rule leave, in catalogue order; an id the catalogue lacks is an input error. */
export function selectRules(filter: RuleFilter): readonly Rule[] {
  const only = (filter.only ?? []).map(knownRuleId)
  const skip = (filter.skip ?? []).map(knownRuleId)
  return RULES.filter((rule) => (!only.length || only.includes(rule.id)) && !skip.includes(rule.id))
}

function knownRuleId(id: string): RuleId {
  if (!isRuleId(id)) throw usageError(`unknown rule "${id}"`, 'list the rules with: chainnode rules')
  return id
}

/** The container logs these rules read: a live doctor run reads no others. */
export function logRolesOf(rules: readonly Rule[]): ReadonlySet<LogRole> {
  return new Set(rules.flatMap((rule) => rule.logs ?? []))
}

/**
 * Run the catalogue over snapshots (one per cluster); pure, so live and bundle runs agree. `indexes`, one per
 * snapshot, lets a caller that reads the snapshots again (timeline) share what the rules already looked up.
 */
export function diagnose(
  snapshots: Snapshot[],
  rules: readonly Rule[],
  bundle?: string,
  settings: RuleSettings = {},
  indexes: SnapshotIndex[] = snapshots.map((snapshot) => new SnapshotIndex(snapshot)),
): DoctorResult {
  return {
    rulesChecked: rules.map((r) => r.id),
    clusters: snapshots.map((snapshot, i) => clusterReport(snapshot, runRules(indexes[i], rules, undefined, settings), rules, bundle)),
  }
}

/** diagnose for serve: the rules hand the event loop back as they go, so scrapes are answered during a long cycle. */
export async function diagnoseYielding(snapshots: Snapshot[], rules: readonly Rule[], settings: RuleSettings = {}): Promise<DoctorResult> {
  const clusters: ClusterReport[] = []
  for (const snapshot of snapshots) clusters.push(clusterReport(snapshot, await runRulesYielding(new SnapshotIndex(snapshot), rules, settings), rules))
  return { rulesChecked: rules.map((r) => r.id), clusters }
}

/** A cluster's findings and, computed once from them, its diagnosis: incidents, node states, counts. */
function clusterReport(snapshot: Snapshot, report: ClusterReport['report'], rules: readonly Rule[], bundle?: string): ClusterReport {
  return {
    context: snapshot.source.context,
    server: snapshot.source.server,
    bundle,
    collectedAt: snapshot.collectedAt,
    scope: snapshot.scope,
    requests: snapshot.stats.requests,
    durationMs: snapshot.stats.durationMs,
    ...(snapshot.logSample ? { logSample: sampleSummary(snapshot.logSample) } : {}),
    report,
    diagnosis: diagnosisOf(report, explainLinksOf(rules)),
  }
}

function sampleSummary({ perGroup, standIns }: NonNullable<Snapshot['logSample']>): NonNullable<ClusterReport['logSample']> {
  const skipped = Object.keys(standIns).length
  return { perGroup, read: new Set(Object.values(standIns)).size, skipped }
}
