import { visible } from './visible.js'
import { humanAge } from '../util/duration.js'
import type { TimelineEntry } from '../timeline/types.js'

/** An absolute time to the second: UTC as RFC 3339 with Z, or the local zone with its offset. */
export function absoluteTime(iso: string, utc: boolean): string {
  const date = new Date(Date.parse(iso))
  if (utc) return `${date.toISOString().slice(0, 19)}Z`
  const pad = (n: number) => String(n).padStart(2, '0')
  const offset = -date.getTimezoneOffset()
  const zone = `${offset >= 0 ? '+' : '-'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}${zone}`
}

/** kubectl's event age: "5m", or "5m (x3 over 20m)" for a repeated entry (last seen, then first). */
export function lastSeen(entry: TimelineEntry, now: string): string {
  const age = (iso: string) => humanAge(Date.parse(now) - Date.parse(iso))
  return entry.count > 1 ? `${age(entry.last)} (x${entry.count} over ${age(entry.first)})` : age(entry.first)
}

/** One line of text from the cluster: line breaks and tabs become spaces, other control characters are made visible. */
export function oneLine(text: string): string {
  return visible(text.replace(/[\r\n\t]+/g, ' ')).trim()
}
