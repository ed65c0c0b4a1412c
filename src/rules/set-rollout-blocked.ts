import { vocabularyRule } from './vocabulary/vocabulary-rule.js'
import { operatorSaid } from './vocabulary/operator-said.js'
import { classifyReconcileError } from '../analysis/reconcile-causes.js'
import { failingRunOf } from '../analysis/reconcile-log.js'
import { severityRank } from '../engine/define-rule.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import type { ChainNode } from '../snapshot/kinds.js'
import { compareText } from '../util/compare.js'

/** The top cause of the node a set waits for, in a few words: what the operator says about it, else its Pod. */
export function childCause(index: SnapshotIndex, child: ChainNode, now: number): string {
  const said = operatorSaid(index, child, now)
    .filter((hit) => hit.entry.severity !== 'info' && hit.entry.id !== 'status/phase-transitional')
    .sort((a, b) => severityRank(b.entry.severity) - severityRank(a.entry.severity) || compareText(b.at ?? '', a.at ?? ''))[0]
  if (said) {
    const detail = classifyReconcileError(said.text).detail
    // The generic entries (a Pod or PVC refused) say no more than the detail does.
    if (detail && said.entry.rule === 'reconcile-failing') return `its reconcile fails: ${detail}`
    return `${said.entry.cause}${detail ? `: ${detail}` : ''}`
  }
  const failing = failingRunOf(index, child).at(-1)?.error
  if (failing) {
    const match = classifyReconcileError(failing)
    return `its reconcile fails: ${match.detail ?? failing}`
  }
  const waiting = index
    .podOf(child)
    ?.status?.containerStatuses?.map((status) => status.state?.waiting?.reason)
    .find((reason) => reason)
  if (waiting) return `its Pod waits: ${waiting}`
  if (!index.podOf(child)) return `it has no Pod (phase ${child.status?.phase ?? 'unknown'})`
  return `it is in phase ${child.status?.phase ?? 'unknown'} and nothing collected says why`
}

export default vocabularyRule({
  id: 'set-rollout-blocked',
  title: "The ChainNodeSet's rollout is held",
  severity: 'error',
  specRow: 'Operator vocabulary: `timeout waiting for chainnode \u2026 running or syncing status`, seed migration',
  explain: ({ index, obj, data, now }) => {
    const name = data.vars.child
    if (!name) return undefined
    const child = index.get('ChainNode', obj.metadata.namespace, name) as ChainNode | undefined
    return child ? `${name}: ${childCause(index, child, now)}` : `ChainNode ${name} does not exist`
  },
})
