import type { Palette } from './palette.js'
import type { ClusterTimelines } from '../timeline/types.js'
import { renderTimelineJson } from './timeline-json.js'
import { renderTimelineMarkdown } from './timeline-markdown.js'
import { renderTimelineText } from './timeline-text.js'

export type TimelineFormat = 'text' | 'json' | 'markdown'

/** The timeline command's output in each format (the golden files are made by the same call). */
export function renderTimeline(format: TimelineFormat, clusters: ClusterTimelines[], palette: Palette, utc: boolean, width?: number): string {
  if (format === 'json') return renderTimelineJson(clusters)
  if (format === 'markdown') return renderTimelineMarkdown(clusters)
  return renderTimelineText(clusters, palette, utc, width)
}
