import type { ClusterReport, DoctorResult } from '../engine/doctor-result.js'
import { runTotals } from '../engine/doctor-result.js'
import { docsPath } from '../engine/rule-docs.js'
import { groupFindings, type FindingGroup } from '../engine/group-findings.js'

/**
 * Version of the JSON output contract described by schema/doctor-report.schema.json. 2: `incidents[]` (a cause,
 * the symptoms it explains, its nodes, severity and when it began), each finding's incident and role, node states
 * with "not-measured", ChainNodeSets counted apart.
 */
export const REPORT_SCHEMA_VERSION = 2

const nodeName = (node: { namespace?: string; name: string }) => `${node.namespace}/${node.name}`

function groupJson(group: FindingGroup) {
  return {
    key: group.key,
    ruleId: group.ruleId,
    severity: group.severity,
    ...(group.chainId ? { chainId: group.chainId } : {}),
    summary: group.example.summary,
    count: group.nodes.length,
    since: group.since ?? null,
    nodes: group.nodes.map(nodeName),
  }
}

/** Findings stay one per node, each with its group and incident; the incidents say what explains what. */
function findingsAndIncidents({ report, diagnosis }: ClusterReport) {
  const groups = groupFindings(report)
  const groupOf = new Map(groups.flatMap((group) => group.findings.map((finding) => [finding, group.key] as const)))
  return {
    incidents: diagnosis.incidents.map((incident) => ({
      id: incident.id,
      severity: incident.severity,
      cause: { ...groupJson(incident.cause), cause: incident.cause.example.cause, action: incident.cause.example.action },
      symptoms: incident.symptoms.map(groupJson),
      nodes: incident.nodes.map(nodeName),
      began: incident.began ?? null,
    })),
    findings: report.findings.map((finding) => {
      const role = diagnosis.roleOf.get(finding)
      return { ...finding, docs: docsPath(finding.ruleId), group: groupOf.get(finding), incident: role?.incident.id, role: role?.role }
    }),
    groups: groups.map(groupJson),
  }
}

export function doctorJson(result: DoctorResult, cliVersion: string): object {
  const totals = runTotals(result)
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    kind: 'DoctorReport',
    tool: { name: 'kubectl-chainnode', version: cliVersion },
    summary: {
      nodes: sum(totals.chainNodes),
      chainNodeSets: sum(totals.chainNodeSets),
      findings: totals.findings,
      incidents: totals.incidents,
      notMeasured: totals.chainNodes['not-measured'] + totals.chainNodeSets['not-measured'],
      healthy: totals.chainNodes.ok,
      worst: totals.worst,
      incomplete: totals.incomplete,
    },
    rulesChecked: result.rulesChecked,
    clusters: result.clusters.map((cluster) => {
      const states = new Map(cluster.diagnosis.nodes.map((n) => [nodeName(n.node), n]))
      return {
        context: cluster.context,
        server: cluster.server,
        ...(cluster.bundle ? { bundle: cluster.bundle } : {}),
        collectedAt: cluster.collectedAt,
        scope: cluster.scope,
        requests: cluster.requests,
        durationMs: cluster.durationMs,
        ...(cluster.logSample ? { logSample: cluster.logSample } : {}),
        nodes: cluster.report.nodes.map(({ node, phase, chain, chainId }) => {
          const state = states.get(nodeName(node))
          return {
            ...(node.kind === 'ChainNodeSet' ? { kind: 'ChainNodeSet' } : {}),
            namespace: node.namespace,
            name: node.name,
            phase: phase ?? null,
            ...(chainId ? { chainId } : {}),
            worst: state?.state ?? 'ok',
            ...(state?.notMeasured ? { notMeasured: state.notMeasured } : {}),
            incidents: state?.incidents ?? [],
            ...(chain ? { chain } : {}),
          }
        }),
        ...findingsAndIncidents(cluster),
        suppressed: cluster.report.suppressed,
        ruleErrors: cluster.report.ruleErrors,
        collectionErrors: cluster.report.collectionErrors,
      }
    }),
  }
}
