import { refOf } from '../snapshot/index.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { defineRule, severityRank, type Rule, type RuleHit, type Severity } from '../engine/define-rule.js'
import type { RuleId } from '../rules/ids.js'
import { compareText } from '../util/compare.js'
import { entryById, fillTemplate, SHARED_ACTIONS } from './operator-vocabulary.js'
import { operatorSaid, type VocabularyHit } from './operator-said.js'
import { type ChainNode, type ChainNodeSet, isKind } from '../snapshot/kinds.js'

export interface VocabularyData {
  /** The catalogue entry that decides the cause and action (the most severe, then the latest). */
  entry: string
  /** Every entry seen, in the order seen. */
  entries: string[]
  /** The operator's own words for it. */
  message: string
  /** The names the action is filled with. */
  vars: Record<string, string>
}

interface VocabularyRuleSpec {
  id: RuleId
  title: string
  specRow: string
  severity: Severity
  suppressedBy?: readonly RuleId[]
  /** Rules whose findings on the same node this one explains, besides the phase and the failing reconcile every entry explains. */
  explains?: readonly RuleId[]
  /** What the node's own data adds: extra evidence or a reason to stay quiet. */
  refine?: (ctx: { index: SnapshotIndex; obj: ChainNode | ChainNodeSet; hits: VocabularyHit[] }) => VocabularyHit[]
  summary?: (data: VocabularyData) => string
}

/** Names an action of the catalogue may use, for one object. */
export function vocabularyVars(index: SnapshotIndex, obj: ChainNode | ChainNodeSet): Record<string, string> {
  const operator = index.operatorFor(obj)
  const set = isKind(obj, 'ChainNode') ? index.ownerSetOf(obj) : obj
  return {
    kind: obj.kind.toLowerCase(),
    object: obj.metadata.name,
    node: obj.metadata.name,
    namespace: obj.metadata.namespace ?? 'default',
    ...(set ? { set: set.metadata.name } : {}),
    operatorNamespace: operator?.metadata.namespace ?? '<operator namespace>',
    operatorName: operator?.metadata.name ?? 'cosmopilot',
  }
}

function hitOf(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, hits: VocabularyHit[]): RuleHit<VocabularyData> | undefined {
  if (hits.length === 0) return undefined
  const ordered = [...hits].sort((a, b) => compareText(a.at ?? '', b.at ?? ''))
  const main = ordered.reduce((best, hit) => (severityRank(hit.entry.severity) > severityRank(best.entry.severity) ? hit : best), ordered.at(-1)!)
  const dated = ordered.filter((hit) => hit.at).map((hit) => hit.at!)
  return {
    subject: refOf(obj),
    severity: main.entry.severity,
    data: {
      entry: main.entry.id,
      entries: [...new Set(ordered.map((hit) => hit.entry.id))],
      message: main.text,
      vars: { ...vocabularyVars(index, obj), ...main.groups },
    },
    evidence: ordered.map((hit) => hit.evidence),
    ...(dated.length ? { since: dated[0] } : {}),
  }
}

/**
 * A rule whose causes and actions are the catalogue's (src/analysis/operator-vocabulary.ts): it reports what
 * the operator says about the node, and about the node's ChainNodeSet (a finding of the set, shared by its
 * nodes; for a set with no ChainNode yet, of the set alone).
 */
export function vocabularyRule(spec: VocabularyRuleSpec): Rule<VocabularyData> {
  const refine = spec.refine ?? (({ hits }) => hits)
  return defineRule<VocabularyData>({
    id: spec.id,
    title: spec.title,
    severity: spec.severity,
    // Each catalogue entry carries its own severity.
    severityNote: '(each message has its own: see below)',
    specRow: spec.specRow,
    suppressedBy: spec.suppressedBy,
    // What the operator names is why its reconcile fails and why the node holds its phase.
    explains: ['phase-stuck', 'reconcile-failing', ...(spec.explains ?? [])],
    logs: ['operator'],
    sets: true,
    check({ index, node, now }) {
      const set = isKind(node, 'ChainNode') ? index.ownerSetOf(node) : undefined
      const objects = [node, ...(set ? [set] : [])]
      return objects.flatMap((obj) => hitOf(index, obj, refine({ index, obj, hits: operatorSaid(index, obj, now, spec.id) })) ?? [])
    },
    summary: spec.summary ?? ((d) => `the operator reports: ${d.message}`),
    cause: (d) => entryById.get(d.entry)?.cause ?? 'the operator reports a failure',
    action: (d) => {
      const action = entryById.get(d.entry)?.action ?? ''
      return fillTemplate(SHARED_ACTIONS[action] ?? action, d.vars)
    },
  })
}
