import type { BundleComparison, ComparedIncident, NodeChange } from '../analysis/bundle-diff.js'
import { mdCell, mdText } from './markdown.js'
import { visible } from './visible.js'
import type { ObjectRef } from '../snapshot/types.js'

const ref = (r: ObjectRef) => `${r.namespace ? `${r.namespace}/` : ''}${r.name}`
const nodesOf = (i: ComparedIncident) => i.nodes.map(ref).join(', ')

function changeWords(change: NodeChange): string[] {
  const out: string[] = []
  if (change.phase) out.push(`phase ${change.phase.before ?? '(none)'} -> ${change.phase.after ?? '(none)'}`)
  if (change.restarts)
    out.push(
      [change.restarts.podReplaced ? 'Pod replaced' : '', change.restarts.containerRestarts ? `${change.restarts.containerRestarts} container restart(s)` : '']
        .filter(Boolean)
        .join(', '),
    )
  if (change.configKeys) out.push(`configuration keys changed: ${change.configKeys.join(', ')}`)
  return out
}

/** kubectl-style text: what appeared first (what a reader acts on), then what was resolved, what persisted, and the nodes. */
export function renderDiffText(c: BundleComparison): string {
  const out = [
    `Comparing ${visible(c.before.source)} (collected ${c.before.collectedAt}) with ${visible(c.after.source)} (collected ${c.after.collectedAt})`,
    '',
  ]
  const section = (title: string, list: ComparedIncident[]) => {
    out.push(`${title} (${list.length}):`)
    for (const i of list) out.push(`  ${i.severity.toUpperCase()}  ${i.ruleId}  ${visible(i.summary)}  [${visible(nodesOf(i))}]`)
    if (list.length === 0) out.push('  none')
  }
  section('Appeared', c.incidents.appeared)
  section('Resolved', c.incidents.resolved)
  section('Persisted', c.incidents.persisted)
  out.push('', 'Nodes:')
  for (const n of c.nodes.added) out.push(`  ${visible(ref(n))}: added`)
  for (const n of c.nodes.removed) out.push(`  ${visible(ref(n))}: removed`)
  for (const change of c.nodes.changed) out.push(`  ${visible(ref(change.node))}: ${visible(changeWords(change).join('; '))}`)
  if (c.nodes.added.length + c.nodes.removed.length + c.nodes.changed.length === 0) out.push('  no phase change, restart or configuration change')
  return out.join('\n')
}

/** Markdown for a ticket: every stranger's text escaped (render/markdown.ts). */
export function renderDiffMarkdown(c: BundleComparison): string {
  const out = [
    `# Comparison`,
    '',
    `${mdText(c.before.source)} (collected ${c.before.collectedAt}) against ${mdText(c.after.source)} (collected ${c.after.collectedAt})`,
    '',
  ]
  for (const [title, list] of [
    ['Appeared', c.incidents.appeared],
    ['Resolved', c.incidents.resolved],
    ['Persisted', c.incidents.persisted],
  ] as const) {
    out.push(`## ${title} (${list.length})`, '')
    if (list.length === 0) out.push('None.', '')
    else
      out.push(
        '| severity | rule | summary | nodes |',
        '|---|---|---|---|',
        ...list.map((i) => `| ${i.severity} | ${mdCell(i.ruleId)} | ${mdCell(i.summary)} | ${mdCell(nodesOf(i))} |`),
        '',
      )
  }
  out.push('## Nodes', '')
  const rows = [
    ...c.nodes.added.map((n) => [ref(n), 'added']),
    ...c.nodes.removed.map((n) => [ref(n), 'removed']),
    ...c.nodes.changed.map((ch) => [ref(ch.node), changeWords(ch).join('; ')]),
  ]
  if (rows.length === 0) out.push('No phase change, restart or configuration change.')
  else out.push('| node | change |', '|---|---|', ...rows.map(([n, what]) => `| ${mdCell(n)} | ${mdCell(what)} |`))
  return `${out.join('\n')}\n`
}
