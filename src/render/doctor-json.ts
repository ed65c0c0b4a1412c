import type { DoctorResult } from '../engine/doctor-result.js'
import { countBySeverity, worstSeverity } from '../engine/doctor-result.js'
import { docsPath } from '../rules/docs.js'

/** Version of the JSON output contract described by schema/doctor-report.schema.json. */
export const REPORT_SCHEMA_VERSION = 1

export function doctorJson(result: DoctorResult, cliVersion: string): object {
  const counts = countBySeverity(result)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'DoctorReport',
    tool: { name: 'kubectl-chainnode', version: cliVersion },
    summary: {
      nodes: result.clusters.reduce((sum, c) => sum + c.report.nodes.length, 0),
      findings: counts,
      incomplete: result.clusters.some((c) => c.report.collectionErrors.length > 0 || c.report.ruleErrors.length > 0),
    },
    rulesChecked: result.rulesChecked,
    clusters: result.clusters.map((cluster) => ({
      context: cluster.context,
      server: cluster.server,
      ...(cluster.bundle ? { bundle: cluster.bundle } : {}),
      collectedAt: cluster.collectedAt,
      scope: cluster.scope,
      requests: cluster.requests,
      durationMs: cluster.durationMs,
      nodes: cluster.report.nodes.map(({ node, phase, chain }) => ({
        namespace: node.namespace,
        name: node.name,
        phase: phase ?? null,
        worst: worstSeverity(cluster.report, node.namespace, node.name),
        ...(chain ? { chain } : {}),
      })),
      findings: cluster.report.findings.map((finding) => ({ ...finding, docs: docsPath(finding.ruleId) })),
      suppressed: cluster.report.suppressed,
      ruleErrors: cluster.report.ruleErrors,
      collectionErrors: cluster.report.collectionErrors,
    })),
  }
}
