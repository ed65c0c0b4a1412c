import { nodesOf, onsetOf, type Finding } from '../engine/define-rule.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** doctor's findings about this node, each placed where its trouble began (onsetOf), or at collection when nothing is dated. */
export function findingEntries(findings: readonly Finding[], node: ChainNode, now: string): RawEntry[] {
  return findings
    .filter((f) => nodesOf(f).some((n) => n.namespace === node.metadata.namespace && n.name === node.metadata.name))
    .map((f) => ({
      at: isoTime(onsetOf(f)) ?? now,
      last: now,
      source: 'finding' as const,
      kind: `rule/${f.ruleId}`,
      subject: f.subject,
      level: f.severity,
      text: `${f.ruleId}: ${f.summary}`,
    }))
}
