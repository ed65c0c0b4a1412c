import { nodesOf, severityRank, type Severity } from './define-rule.js'
import type { RuleId } from '../rules/ids.js'
import type { Scope } from '../snapshot/types.js'
import type { Report } from './run-rules.js'

/** The outcome of doctor for one cluster (live, or replayed from a bundle). */
export interface ClusterReport {
  context: string
  server: string
  bundle?: string
  collectedAt: string
  scope: Scope
  requests: number
  durationMs: number
  /** Set when the logs of look-alike nodes were read for a sample of them (--log-sample). */
  logSample?: { perGroup: number; read: number; skipped: number }
  report: Report
}

export interface DoctorResult {
  clusters: ClusterReport[]
  rulesChecked: RuleId[]
}

export function countBySeverity(result: DoctorResult): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  for (const cluster of result.clusters) for (const finding of cluster.report.findings) counts[finding.severity]++
  return counts
}

const worstCache = new WeakMap<Report, Map<string, Severity>>()

/** Worst severity per node, computed once per report: a fleet asks for each of thousands of nodes. */
function worstByNode(report: Report): Map<string, Severity> {
  let byNode = worstCache.get(report)
  if (byNode) return byNode
  byNode = new Map()
  for (const f of report.findings) {
    for (const node of nodesOf(f)) {
      const key = `${node.namespace}/${node.name}`
      const seen = byNode.get(key)
      if (!seen || severityRank(f.severity) > severityRank(seen)) byNode.set(key, f.severity)
    }
  }
  worstCache.set(report, byNode)
  return byNode
}

/** Worst severity per node, for the fleet summary. */
export function worstSeverity(report: Report, namespace: string | undefined, name: string): Severity | 'ok' {
  return worstByNode(report).get(`${namespace}/${name}`) ?? 'ok'
}
