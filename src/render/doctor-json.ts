import type { DoctorResult } from '../engine/doctor-result.js'
import { countBySeverity, worstSeverity } from '../engine/doctor-result.js'
import { docsPath } from '../engine/rule-docs.js'
import { groupFindings, groupKeys } from '../engine/group-findings.js'
import type { Report } from '../engine/run-rules.js'

/** Version of the JSON output contract described by schema/doctor-report.schema.json. */
export const REPORT_SCHEMA_VERSION = 1

/** Findings stay one per node, each with the key of its group; the groups say the count, the chain and since when. */
function findingsWithGroups(report: Report) {
  const groups = groupFindings(report)
  const keys = groupKeys(groups)
  return {
    findings: report.findings.map((finding) => ({ ...finding, docs: docsPath(finding.ruleId), group: keys.get(finding) })),
    groups: groups.map((group) => ({
      key: group.key,
      ruleId: group.ruleId,
      severity: group.severity,
      ...(group.chainId ? { chainId: group.chainId } : {}),
      summary: group.example.summary,
      count: group.nodes.length,
      since: group.since ?? null,
      nodes: group.nodes.map((node) => `${node.namespace}/${node.name}`),
    })),
  }
}

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
      ...(cluster.logSample ? { logSample: cluster.logSample } : {}),
      nodes: cluster.report.nodes.map(({ node, phase, chain, chainId }) => ({
        namespace: node.namespace,
        name: node.name,
        phase: phase ?? null,
        ...(chainId ? { chainId } : {}),
        worst: worstSeverity(cluster.report, node.namespace, node.name),
        ...(chain ? { chain } : {}),
      })),
      ...findingsWithGroups(cluster.report),
      suppressed: cluster.report.suppressed,
      ruleErrors: cluster.report.ruleErrors,
      collectionErrors: cluster.report.collectionErrors,
    })),
  }
}
