import { nodesOf, onsetOf, severityRank, type Finding, type Severity } from './define-rule.js'
import type { ObjectRef } from '../snapshot/types.js'
import type { RuleId } from './rule-ids.js'
import type { Report } from './run-rules.js'

/** Findings of several nodes with one cause: the rule, the chain and the data that explains it are the same. */
export interface FindingGroup {
  key: string
  ruleId: RuleId
  severity: Severity
  /** The chain the nodes run (status.chainID), when the operator has written it. */
  chainId?: string
  /** The first finding of the group, in report order: its words stand for every member. */
  example: Finding
  findings: Finding[]
  nodes: ObjectRef[]
  /** When the trouble started, as far as the run can tell: the earliest onset of a member (onsetOf). */
  since?: string
}

const RFC3339 = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)?/g
// "12m", "1h5m30s", "250ms": ages differ between look-alike nodes by when each was read, not by cause.
const AGE = /\b\d+(\.\d+)?(ms|s|m|h|d)(\d+(\.\d+)?(ms|s|m|h))*\b/g

/**
 * What a finding says once the node it is about is masked out: the node's and subject's names, times
 * and ages. Heights, images, object names and reasons stay, so two nodes stalled at different
 * heights, or missing different objects, do not share a key.
 */
export function causeShape(finding: Finding): string {
  const names = [...new Set([finding.node.name, finding.subject.name])].filter(Boolean).sort((a, b) => b.length - a.length)
  const mask = (text: string) => {
    let out = text.replace(RFC3339, '<time>').replace(AGE, '<age>')
    for (const name of names) out = out.split(name).join('<node>')
    return out
  }
  return mask(JSON.stringify(finding.data ?? {}))
}

/**
 * `rule:hash` of the rule, severity, chain, subject kind and cause shape: short enough to filter JSON by. A finding
 * that names its incident (RuleHit.incident: one validator key presented by several nodes) is grouped by that name.
 */
export function groupKeyOf(finding: Finding, chainId: string | undefined): string {
  const cause =
    finding.incidentKey !== undefined
      ? `incident\u0000${finding.incidentKey}`
      : [finding.severity, chainId ?? '', finding.subject.kind, causeShape(finding)].join('\u0000')
  return `${finding.ruleId}:${process.getBuiltinModule('node:crypto').createHash('sha256').update(cause).digest('hex').slice(0, 12)}`
}

/** Group a report's findings by cause, in the order the report lists them (worst first). */
export function groupFindings(report: Report): FindingGroup[] {
  return groupByCause(report.findings, new Map(report.nodes.map((n) => [`${n.node.namespace ?? ''}/${n.node.name}`, n.chainId])))
}

/** Findings grouped by cause, in the order given; `chainOf` says the chain of each node ("namespace/name"). */
export function groupByCause(findings: readonly Finding[], chainOf: ReadonlyMap<string, string | undefined>): FindingGroup[] {
  const groups = new Map<string, FindingGroup>()
  const seenNodes = new Map<FindingGroup, Set<string>>()
  for (const finding of findings) {
    // A shared subject (the operator) holds for nodes of any chain: the first node's chain would mislead.
    const chainId = finding.alsoFor ? undefined : chainOf.get(`${finding.node.namespace ?? ''}/${finding.node.name}`)
    const key = groupKeyOf(finding, chainId)
    let group = groups.get(key)
    if (!group) {
      group = { key, ruleId: finding.ruleId, severity: finding.severity, chainId, example: finding, findings: [], nodes: [] }
      groups.set(key, group)
    }
    group.findings.push(finding)
    if (severityRank(finding.severity) > severityRank(group.severity)) group.severity = finding.severity
    // A set per group, not a search: a fleet's group has thousands of nodes.
    const seen = seenNodes.get(group) ?? seenNodes.set(group, new Set()).get(group)!
    for (const node of nodesOf(finding)) {
      const name = `${node.namespace ?? ''}/${node.name}`
      if (!seen.has(name)) group.nodes.push(node)
      seen.add(name)
    }
    const onset = onsetOf(finding)
    if (onset && (!group.since || Date.parse(onset) < Date.parse(group.since))) group.since = onset
  }
  return [...groups.values()]
}

/** The group key of each finding, for output that lists findings one by one. */
export function groupKeys(groups: FindingGroup[]): Map<Finding, string> {
  const keys = new Map<Finding, string>()
  for (const group of groups) for (const finding of group.findings) keys.set(finding, group.key)
  return keys
}
