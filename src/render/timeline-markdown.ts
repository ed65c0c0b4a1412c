import type { ClusterTimelines } from '../timeline/types.js'
import type { NodeTimeline } from '../timeline/types.js'
import { absoluteTime, entryText, lastSeen } from './timeline-time.js'
import { mdCell, mdCode, mdText } from './markdown.js'
const MARK = { error: '🔴 ', warning: '🟠 ', info: '🔵 ', normal: '' } as const

/** An incident document: one section per node, a table in UTC (incident documents are read across time zones). */
export function renderTimelineMarkdown(clusters: ClusterTimelines[]): string {
  const out: string[] = ['# kubectl chainnode timeline', '']
  for (const cluster of clusters) {
    out.push(
      `## Cluster ${mdCode(cluster.context)}`,
      '',
      `Server: ${mdCode(cluster.server)}${cluster.bundle ? ` (bundle ${mdCode(cluster.bundle)})` : ''}, collected ${mdText(cluster.collectedAt)}.`,
      '',
    )
    if (cluster.nodes.length === 0) out.push('No ChainNodes in scope.', '')
    for (const timeline of cluster.nodes) out.push(...node(timeline))
    if (cluster.incomplete) out.push('> Incomplete: some reads failed or rules could not run (`chainnode doctor` names them).', '')
  }
  return out.join('\n').trimEnd()
}

function node(timeline: NodeTimeline): string[] {
  const time = (iso: string) => absoluteTime(iso, true)
  const out = [
    `### ChainNode ${mdText(`${timeline.node.namespace}/${timeline.node.name}`)}`,
    '',
    `From ${time(timeline.window.since)} to ${time(timeline.window.until)}; now = collection time ${time(timeline.now)}.` +
      (timeline.outsideWindow > 0 ? ` ${timeline.outsideWindow} more entries lie outside this window.` : ''),
    '',
  ]
  if (timeline.entries.length === 0) return [...out, 'Nothing happened in this window.', '']
  out.push('| Time (UTC) | Last seen | Source | Object | What |', '|---|---|---|---|---|')
  for (const e of timeline.entries) {
    const what = `${MARK[e.level]}${e.source === 'finding' ? `**${mdCell(entryText(e))}**` : mdCell(entryText(e))}`
    out.push(`| ${time(e.first)} | ${mdCell(lastSeen(e, timeline.now))} | ${mdCell(e.source)} | ${mdCell(`${e.subject.kind}/${e.subject.name}`)} | ${what} |`)
  }
  return [...out, '']
}
