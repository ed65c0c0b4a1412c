import { refOf } from '../../snapshot/index.js'
import type { SnapshotIndex } from '../../snapshot/index.js'
import { defineRule, severityRank, type Rule, type RuleHit, type Severity } from '../../engine/define-rule.js'
import type { RuleId } from '../../engine/rule-ids.js'
import { compareText } from '../../util/compare.js'
import { entryById, fillTemplate, SHARED_ACTIONS } from './index.js'
import { operatorSaid, sameFailure, type VocabularyHit } from './operator-said.js'
import { causeAction, classifyReconcileError, type CauseMatch } from '../../analysis/reconcile-causes.js'
import { failingRunOf, groupErrors } from '../../analysis/reconcile-log.js'
import { type ChainNode, type ChainNodeSet, isKind } from '../../snapshot/kinds.js'

export interface VocabularyData {
  /** The catalogue entry that decides the cause and action (the most severe, then the latest). */
  entry: string
  /** Every entry seen, in the order seen. */
  entries: string[]
  /** The operator's own words for it. */
  message: string
  /** The names the action is filled with. */
  vars: Record<string, string>
  /** The specific cause the operator's words carry (the quota's used and hard, the permission denied, the missing object…). */
  specific?: CauseMatch
  /** What the rule adds about it from elsewhere (the node a set waits for, the node's own chain probe). */
  note?: string
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
  refine?: (ctx: { index: SnapshotIndex; obj: ChainNode | ChainNodeSet; hits: VocabularyHit[]; now: number }) => VocabularyHit[]
  summary?: (data: VocabularyData) => string
  /** A sentence the cause ends with, from what the rule reads beyond the operator's words. */
  explain?: (ctx: { index: SnapshotIndex; obj: ChainNode | ChainNodeSet; data: VocabularyData; now: number }) => string | undefined
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

/**
 * The most specific cause in the operator's words about this finding: its own text, the other texts of the same
 * entry, then the reconcile error the Event shortened (FormatErrorEvent keeps only the last part of the chain).
 */
function specificOf(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, main: VocabularyHit, hits: VocabularyHit[]): CauseMatch | undefined {
  const texts = [main.text, ...hits.filter((hit) => hit !== main && hit.entry === main.entry).map((hit) => hit.text)]
  if (main.entry.channel === 'event')
    for (const group of groupErrors(failingRunOf(index, obj)).reverse()) if (sameFailure(main.text, group.error)) texts.push(group.error)
  let best: CauseMatch | undefined
  for (const text of texts) {
    const match = classifyReconcileError(text)
    // An entry that is itself a timeout already says what the operator waited for.
    if (!match.detail || (match.cause === 'timeout' && main.entry.template.startsWith('timeout'))) continue
    if (!best || Object.keys(match.facts ?? {}).length > Object.keys(best.facts ?? {}).length) best = match
  }
  return best
}

function hitOf(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, hits: VocabularyHit[]): RuleHit<VocabularyData> | undefined {
  if (hits.length === 0) return undefined
  const ordered = [...hits].sort((a, b) => compareText(a.at ?? '', b.at ?? ''))
  const main = ordered.reduce((best, hit) => (severityRank(hit.entry.severity) > severityRank(best.entry.severity) ? hit : best), ordered.at(-1)!)
  const dated = ordered.filter((hit) => hit.at).map((hit) => hit.at!)
  const specific = specificOf(index, obj, main, ordered)
  return {
    subject: refOf(obj),
    severity: main.entry.severity,
    data: {
      entry: main.entry.id,
      entries: [...new Set(ordered.map((hit) => hit.entry.id))],
      message: main.text,
      vars: { ...vocabularyVars(index, obj), ...main.groups },
      ...(specific ? { specific } : {}),
    },
    evidence: ordered.map((hit) => hit.evidence),
    ...(dated.length ? { since: dated[0] } : {}),
  }
}

/**
 * A rule whose causes and actions are the catalogue's (src/rules/vocabulary/index.ts): it reports what
 * the operator says about the node, and about the node's ChainNodeSet (a finding of the set, shared by its
 * nodes; for a set with no ChainNode yet, of the set alone).
 */
/** The first four words of an action, where it says what to do to what. */
const opening = (action: string) => action.split(/[\s(:,.]+/, 4).join(' ')

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
      return objects.flatMap((obj) => {
        const hit = hitOf(index, obj, refine({ index, obj, hits: operatorSaid(index, obj, now, spec.id), now }))
        if (!hit) return []
        const note = spec.explain?.({ index, obj, data: hit.data, now })
        return [note ? { ...hit, data: { ...hit.data, note } } : hit]
      })
    },
    summary: spec.summary ?? ((d) => `the operator reports: ${d.message}`),
    cause: (d) => {
      // The cause names the node's own objects too ({object}-init-data): filled like the action, never shown as a placeholder.
      const cause = fillTemplate(entryById.get(d.entry)?.cause ?? 'the operator reports a failure', d.vars)
      return `${cause}${d.specific?.detail ? `: ${d.specific.detail}` : ''}${d.note ? `; ${d.note}` : ''}`
    },
    action: (d) => {
      const name = entryById.get(d.entry)?.action ?? ''
      const general = fillTemplate(SHARED_ACTIONS[name] ?? name, d.vars)
      if (!d.specific) return general
      const specific = causeAction(d.specific, {
        namespace: d.vars.namespace,
        node: d.vars.object,
        operator: `${d.vars.operatorNamespace}/${d.vars.operatorName}`,
      })
      // An action that only says "the object the error names" is the specific one, said better.
      if (/the error names|the error says/.test(general) && d.specific.object) return specific
      // The entry's own action that opens with the same words ("Create Secret <name> in", "Check the genesis
      // source") says it already, with the names filled in: saying it twice reads as two steps.
      return opening(specific) === opening(general) ? general : `${specific} ${general}`
    },
  })
}
