import type { Palette } from './palette.js'
import type { TimelineEntry } from '../timeline/types.js'
import { timelineRows } from './timeline-text.js'
import { oneLine } from './timeline-time.js'
import { proseWidth, wrap } from './width.js'
import type { Look } from './look.js'

/**
 * The few timeline entries leading up to a node's worst finding, closing its section of doctor's
 * text, and how to see the whole timeline. Times in the zone of the evidence lines
 * above them, within the terminal's width.
 */
export function renderLeadUp(node: string, entries: TimelineEntry[] | undefined, now: string, palette: Palette, look: Look): string[] {
  const { width, utc } = look
  if (!entries?.length) return []
  const [namespace, name] = node.split('/')
  return [
    ...wrap(`Leading up to it (more: chainnode timeline ${oneLine(name)} -n ${oneLine(namespace)}):`, proseWidth(width), '  ', '    '),
    ...timelineRows(entries, now, palette, utc, '    ', width),
    '',
  ]
}
