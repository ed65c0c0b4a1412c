import { cut } from './width.js'
import type { Palette } from '../palette.js'
import type { ClusterTimelines } from '../services/timeline.js'
import type { NodeTimeline, TimelineEntry } from '../timeline/types.js'
import { columns } from './columns.js'
import { absoluteTime, lastSeen, oneLine } from './timeline-time.js'

const object = (entry: TimelineEntry) => `${entry.subject.kind.toLowerCase()}/${entry.subject.name}`

/** kubectl-style table per node: absolute time of the first occurrence, age and repeats, source, object, message. */
export function renderTimelineText(clusters: ClusterTimelines[], palette: Palette, utc: boolean): string {
  const out: string[] = []
  for (const cluster of clusters) {
    if (clusters.length > 1) out.push(palette.paint('heading', `Cluster ${cluster.context} (${cluster.server})`), '')
    if (cluster.nodes.length === 0) out.push('No ChainNodes in scope.', '')
    for (const timeline of cluster.nodes) out.push(...renderNode(timeline, palette, utc), '')
    if (cluster.incomplete) out.push(palette.paint('warning', 'Incomplete: some reads failed or rules could not run (chainnode doctor names them).'), '')
  }
  return out.join('\n').trimEnd()
}

function renderNode(timeline: NodeTimeline, palette: Palette, utc: boolean): string[] {
  const time = (iso: string) => absoluteTime(iso, utc)
  const header = [
    palette.paint('subject', `ChainNode ${timeline.node.namespace}/${timeline.node.name}`),
    palette.paint('muted', `  from ${time(timeline.window.since)} to ${time(timeline.window.until)} (now = collected ${time(timeline.now)})`),
  ]
  if (timeline.outsideWindow > 0) header.push(palette.paint('muted', `  ${timeline.outsideWindow} more entries outside this window (widen it with --since)`))
  if (timeline.entries.length === 0) return [...header, '  Nothing happened in this window.']
  return [...header, ...timelineRows(timeline.entries, timeline.now, palette, utc)]
}

/** The table lines of some timeline entries; doctor prints a few of them under a node. */
export function timelineRows(entries: TimelineEntry[], now: string, palette: Palette, utc: boolean, indent = '', width?: number): string[] {
  const rows = entries.map((e) => [absoluteTime(e.first, utc), lastSeen(e, now), e.source, oneLine(object(e)), oneLine(e.text)])
  return columns(['time', 'last seen', 'source', 'object', 'message'], rows)
    .split('\n')
    .map((line, i) => {
      const entry = i === 0 ? undefined : entries[i - 1]
      const meaning = entry?.level === 'error' || entry?.level === 'warning' ? entry.level : entry?.source === 'finding' ? 'info' : undefined
      // Cut before painting, so colour codes do not count towards the width.
      const fitted = width === undefined ? line : cut(line, width - indent.length)
      return indent + (meaning ? palette.paint(meaning, fitted) : fitted)
    })
}
