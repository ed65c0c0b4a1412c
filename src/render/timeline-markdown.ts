import type { ClusterTimelines } from '../timeline/types.js'
import type { NodeTimeline } from '../timeline/types.js'
import { absoluteTime, lastSeen, oneLine } from './timeline-time.js'

/** Text from the cluster inside a table cell: no pipes, no HTML, no code spans or emphasis it did not ask for. */
const cell = (text: string) => oneLine(text).replace(/[\\|`*_<>[\]]/g, (c) => (c === '<' ? '&lt;' : c === '>' ? '&gt;' : `\\${c}`))
const MARK = { error: '🔴 ', warning: '🟠 ', info: '🔵 ', normal: '' } as const

/** An incident document: one section per node, a table in UTC (incident documents are read across time zones). */
export function renderTimelineMarkdown(clusters: ClusterTimelines[]): string {
  const out: string[] = ['# kubectl chainnode timeline', '']
  for (const cluster of clusters) {
    out.push(
      `## Cluster \`${oneLine(cluster.context)}\``,
      '',
      `Server: ${cell(cluster.server)}${cluster.bundle ? ` (bundle \`${oneLine(cluster.bundle)}\`)` : ''}, collected ${cell(cluster.collectedAt)}.`,
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
    `### ChainNode ${cell(`${timeline.node.namespace}/${timeline.node.name}`)}`,
    '',
    `From ${time(timeline.window.since)} to ${time(timeline.window.until)}; now = collection time ${time(timeline.now)}.` +
      (timeline.outsideWindow > 0 ? ` ${timeline.outsideWindow} more entries lie outside this window.` : ''),
    '',
  ]
  if (timeline.entries.length === 0) return [...out, 'Nothing happened in this window.', '']
  out.push('| Time (UTC) | Last seen | Source | Object | What |', '|---|---|---|---|---|')
  for (const e of timeline.entries) {
    const what = `${MARK[e.level]}${e.source === 'finding' ? `**${cell(e.text)}**` : cell(e.text)}`
    out.push(`| ${time(e.first)} | ${cell(lastSeen(e, timeline.now))} | ${e.source} | ${cell(`${e.subject.kind}/${e.subject.name}`)} | ${what} |`)
  }
  return [...out, '']
}
