import { visible } from './visible.js'
import { humanAge } from '../util/duration.js'
import type { TimelineEntry } from '../timeline/types.js'

/**
 * The one time format of every text report (doctor, timeline, status): RFC 3339 to the second, in UTC with Z
 * (--utc), or else in the local zone with its offset, as kubectl shows local times. Logs give nine fractional
 * digits and Events six or none; a reader needs neither. Text that is not a time is returned as it is.
 */
export function absoluteTime(iso: string, utc: boolean): string {
  const ms = Date.parse(iso)
  if (Number.isNaN(ms)) return iso
  const date = new Date(ms)
  if (utc) return `${date.toISOString().slice(0, 19)}Z`
  const pad = (n: number) => String(n).padStart(2, '0')
  const offset = -date.getTimezoneOffset()
  // A zone at UTC is written Z, as RFC 3339 allows: the same text as --utc.
  const zone = offset === 0 ? 'Z' : `${offset > 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${zone}`
}

/** An RFC 3339 time inside a sentence: date, time, up to nine fractional digits, zone. Bounded, so linear on any text. */
const EMBEDDED_TIME = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})/g

/** The times written into a finding's words ("in InitializingData since …") in the report's one format. */
export function timesIn(text: string, utc: boolean): string {
  return text.replace(EMBEDDED_TIME, (time) => absoluteTime(time, utc))
}

/** kubectl's event age: "5m", or "5m (x3 over 20m)" for a repeated entry (last seen, then first). */
export function lastSeen(entry: TimelineEntry, now: string): string {
  const age = (iso: string) => humanAge(Date.parse(now) - Date.parse(iso))
  return entry.count > 1 ? `${age(entry.last)} (x${entry.count} over ${age(entry.first)})` : age(entry.first)
}

/** One line of text from the cluster: line breaks and tabs become spaces, other control characters are made visible. */
/** An entry's text as printed: what was cut from a message of megabytes is counted, not shown. */
export const entryText = (entry: Pick<TimelineEntry, 'text' | 'cutChars'>): string =>
  entry.cutChars ? `${entry.text}… (${entry.cutChars} more characters)` : entry.text

export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t]+/g, ' ')).trim()
}
