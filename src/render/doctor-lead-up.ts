import type { Palette } from './palette.js'
import type { TimelineEntry } from '../timeline/types.js'
import { timelineRows } from './timeline-text.js'
import { oneLine } from './timeline-time.js'
import { proseWidth, wrap } from './width.js'

/**
 * The few timeline entries leading up to a node's worst finding, closing its section of doctor's
 * text, and how to see the whole timeline. Times in UTC, like the evidence lines above them; within
 * doctor's 120 columns.
 */
export function renderLeadUp(node: string, entries: TimelineEntry[] | undefined, now: string, palette: Palette, width?: number): string[] {
  if (!entries?.length) return []
  const [namespace, name] = node.split('/')
  return [
    ...wrap(`Leading up to it (whole timeline: chainnode timeline ${oneLine(name)} -n ${oneLine(namespace)}):`, proseWidth(width), '  ', '    '),
    ...timelineRows(entries, now, palette, true, '    ', width),
    '',
  ]
}
