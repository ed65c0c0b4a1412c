import type { Palette } from './palette.js'
import type { ClusterTimelines } from '../timeline/types.js'
import type { NodeTimeline, TimelineEntry } from '../timeline/types.js'
import { columns } from './columns.js'
import { absoluteTime, entryText, lastSeen, oneLine } from './timeline-time.js'
import { cut, proseWidth, wrap } from './width.js'

const object = (entry: TimelineEntry) => oneLine(`${entry.subject.kind.toLowerCase()}/${entry.subject.name}`)

/**
 * kubectl-style table per node: absolute time of the first occurrence, age and repeats, source, object, message.
 * width: where the headings wrap; the table's lines stay whole (kubectl cuts no cell: a long row wraps in the terminal).
 */
export function renderTimelineText(clusters: ClusterTimelines[], palette: Palette, utc: boolean, width?: number): string {
  const out: string[] = []
  for (const cluster of clusters) {
    if (clusters.length > 1) out.push(palette.paint('heading', `Cluster ${oneLine(cluster.context)} (${oneLine(cluster.server)})`), '')
    if (cluster.nodes.length === 0) out.push('No ChainNodes in scope.', '')
    for (const timeline of cluster.nodes) out.push(...renderNode(timeline, palette, utc, width), '')
    if (cluster.incomplete) out.push(palette.paint('warning', 'Incomplete: some reads failed or rules could not run (chainnode doctor names them).'), '')
  }
  return out.join('\n').trimEnd()
}

function renderNode(timeline: NodeTimeline, palette: Palette, utc: boolean, width?: number): string[] {
  const time = (iso: string) => absoluteTime(iso, utc)
  const header = [
    palette.paint('subject', `ChainNode ${oneLine(`${timeline.node.namespace}/${timeline.node.name}`)}`),
    ...wrap(
      `from ${time(timeline.window.since)} to ${time(timeline.window.until)} (now = collected ${time(timeline.now)})`,
      proseWidth(width),
      '  ',
      '    ',
    ).map((line) => palette.paint('muted', line)),
  ]
  if (timeline.outsideWindow > 0) header.push(palette.paint('muted', `  ${timeline.outsideWindow} more entries outside this window (widen it with --since)`))
  if (timeline.entries.length === 0) return [...header, '  Nothing happened in this window.']
  return [...header, ...timelineRows(timeline.entries, timeline.now, palette, utc)]
}

/** The table lines of some timeline entries; doctor prints a few of them under a node, cut to `width` when given. */
export function timelineRows(entries: TimelineEntry[], now: string, palette: Palette, utc: boolean, indent = '', width?: number): string[] {
  const rows = entries.map((e) => [absoluteTime(e.first, utc), lastSeen(e, now), e.source, object(e), oneLine(entryText(e))])
  return columns(['time', 'last seen', 'source', 'object', 'message'], rows)
    .split('\n')
    .map((line, i) => {
      const entry = i === 0 ? undefined : entries[i - 1]
      const meaning = entry?.level === 'error' || entry?.level === 'warning' ? entry.level : entry?.source === 'finding' ? 'info' : undefined
      // Cut before painting, so escape codes do not count towards the width.
      const fitted = width === undefined ? indent + line : cut(indent + line, width)
      return meaning ? palette.paint(meaning, fitted) : fitted
    })
}
