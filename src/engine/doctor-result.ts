import type { Severity } from '../rules/define-rule.js'
import type { RuleId } from '../rules/index.js'
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

/** Worst severity per node, for the fleet summary. */
export function worstSeverity(report: Report, namespace: string | undefined, name: string): Severity | 'ok' {
  const mine = report.findings.filter((f) => f.node.namespace === namespace && f.node.name === name)
  for (const severity of ['error', 'warning', 'info'] as const) if (mine.some((f) => f.severity === severity)) return severity
  return 'ok'
}
