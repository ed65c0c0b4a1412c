import type { Finding, Rule } from '../rules/define-rule.js'
import { severityRank } from '../rules/define-rule.js'
import { refOf, type SnapshotIndex } from '../snapshot/index.js'
import type { CollectionError, ObjectRef } from '../snapshot/types.js'

export interface RuleError {
  ruleId: string
  node: ObjectRef
  message: string
}

export interface NodeResult {
  node: ObjectRef
  phase?: string
  rulesChecked: string[]
}

export interface Report {
  findings: Finding[]
  ruleErrors: RuleError[]
  nodes: NodeResult[]
  collectionErrors: CollectionError[]
}

/**
 * Run every rule against every node of the snapshot. A rule that throws is reported as an error
 * of the tool and never stops the others. Findings about a shared subject (the operator) are kept once.
 */
export function runRules(index: SnapshotIndex, rules: readonly Rule<never>[], now = Date.parse(index.snapshot.collectedAt)): Report {
  const findings = new Map<string, Finding>()
  const ruleErrors: RuleError[] = []
  const nodes: NodeResult[] = []
  for (const node of index.chainNodes()) {
    const pod = index.podOf(node)
    const nodeRef = refOf(node)
    for (const rule of rules as readonly Rule<Record<string, unknown>>[]) {
      try {
        for (const hit of rule.check({ index, node, pod, now })) {
          const key = `${rule.id}|${hit.subject.kind}/${hit.subject.namespace ?? ''}/${hit.subject.name}`
          if (findings.has(key)) continue
          findings.set(key, {
            ruleId: rule.id,
            severity: hit.severity ?? rule.severity,
            subject: hit.subject,
            node: nodeRef,
            summary: rule.summary(hit.data),
            cause: rule.cause(hit.data),
            action: rule.action(hit.data),
            evidence: hit.evidence,
            data: hit.data,
          })
        }
      } catch (error) {
        ruleErrors.push({ ruleId: rule.id, node: nodeRef, message: error instanceof Error ? error.message : String(error) })
      }
    }
    nodes.push({ node: nodeRef, phase: node.status?.phase, rulesChecked: rules.map((rule) => rule.id) })
  }
  return { findings: sortFindings([...findings.values()]), ruleErrors, nodes, collectionErrors: index.snapshot.collectionErrors }
}

export function sortFindings(findings: Finding[]): Finding[] {
  const key = (f: Finding) => `${f.node.namespace}/${f.node.name}|${f.ruleId}|${f.subject.kind}/${f.subject.name}`
  return [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || key(a).localeCompare(key(b)))
}
