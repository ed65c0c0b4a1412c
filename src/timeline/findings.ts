import type { Finding } from '../engine/define-rule.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'

/** When a finding's evidence was first seen; a finding with undated evidence is placed at collection. */
export function firstEvidence(finding: Finding, now: string): string {
  const times = finding.evidence.flatMap((e) => (isoTime(e.at) ? [isoTime(e.at)!] : [])).sort()
  return times[0] ?? now
}

/** doctor's findings about this node, each at the time of its first evidence. */
export function findingEntries(findings: readonly Finding[], node: KubeObject, now: string): RawEntry[] {
  return findings
    .filter((f) => f.node.namespace === node.metadata.namespace && f.node.name === node.metadata.name)
    .map((f) => ({
      at: firstEvidence(f, now),
      last: now,
      source: 'finding' as const,
      kind: `rule/${f.ruleId}`,
      subject: f.subject,
      level: f.severity,
      text: `${f.ruleId}: ${f.summary}`,
    }))
}
