import { percentage, scale, scaledLabel } from './measurement.js'
import type { TopResult } from './top.js'

export interface RenderTopOptions {
  /** Print at most this many rows, adding pprof's "Showing top N nodes out of M". */
  rows?: number
  /** IANA zone for the "Time:" line; default the process's local zone, as pprof. */
  timeZone?: string
}

/** The text `go tool pprof -top` prints for a top table, newline-terminated. */
export function renderTop(result: TopResult, options: RenderTopOptions = {}): string {
  const fmt = (v: number): string => scaledLabel(v, result.unit, result.outputUnit)
  const shown = options.rows === undefined ? result.rows : result.rows.slice(0, Math.max(0, options.rows))
  const showingValue = shown === result.rows ? result.showing.value : shown.reduce((s, r) => s + r.flat, 0)
  const lines = [...profileLabels(result, fmt, options.timeZone)]
  // report.legendActiveFilters: a filter longer than 80 characters is cut with an ellipsis.
  if (result.activeFilters.length > 0) lines.push('Active filters:', ...result.activeFilters.map((f) => `   ${f.length > 80 ? `${f.slice(0, 80)}…` : f}`))
  lines.push(`Showing nodes accounting for ${fmt(showingValue)}, ${percentage(showingValue, result.total).trim()} of ${fmt(result.total)} total`)
  if (result.total !== 0) {
    const d = result.dropped.nodes
    if (d > 0) lines.push(`Dropped ${d} ${d > 1 ? 'nodes' : 'node'} (cum <= ${fmt(result.dropped.cumThreshold)})`)
    if (shown.length > 0 && shown.length < result.nodesAfterTrim) {
      lines.push(`Showing top ${shown.length} nodes out of ${result.nodesAfterTrim}`)
    }
  }
  lines.push('      flat  flat%   sum%        cum   cum%')
  let flatSum = 0
  for (const r of shown) {
    flatSum += r.flat
    const inline = r.inline === null ? '' : ` (${r.inline})`
    lines.push(
      `${fmt(r.flat).padStart(10)} ${percentage(r.flat, result.total)} ${percentage(flatSum, result.total)} ` +
        `${fmt(r.cum).padStart(10)} ${percentage(r.cum, result.total)}  ${r.name}${inline}`,
    )
  }
  return lines.join('\n') + '\n'
}

/** report.ProfileLabels: File, Build ID, comments, Type, Doc, Time, Duration. */
function profileLabels(result: TopResult, fmt: (v: number) => string, timeZone: string | undefined): string[] {
  const h = result.header
  const out: string[] = []
  if (h.file !== '') {
    out.push(`File: ${baseName(h.file)}`)
  }
  if (h.buildId !== '') out.push(`Build ID: ${h.buildId}`)
  for (const c of h.comments) if (!c.startsWith('#')) out.push(c)
  out.push(`Type: ${result.sampleType}`)
  if (h.docUrl !== '') out.push(`Doc: ${h.docUrl}`)
  if (h.timeNanos !== 0) out.push(`Time: ${formatTime(h.timeNanos, timeZone)}`)
  if (h.durationNanos !== 0) {
    const duration = scaledLabel(h.durationNanos, 'nanoseconds', 'auto')
    const [totalNanos, totalUnit] = scale(result.total, result.unit, 'nanoseconds')
    const ratio = totalUnit === 'ns' && totalNanos !== 0 ? `(${percentage(Math.trunc(totalNanos), h.durationNanos)})` : ''
    out.push(`Duration: ${duration}, Total samples = ${fmt(result.total)} ${ratio}`)
  }
  return out
}

function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  if (trimmed === '') return '/'
  return trimmed.slice(trimmed.lastIndexOf('/') + 1)
}

/**
 * Go's time.Format("2006-01-02 15:04:05 MST") in the given zone. Go takes
 * the zone abbreviation from tzdata; Intl has no such list, so outside UTC
 * the abbreviation is a best effort (en-US, then en-GB, then "+0530" style).
 */
function formatTime(nanos: number, timeZone: string | undefined): string {
  const date = new Date(Math.floor(nanos / 1e6))
  const parts = (locale: string) =>
    new Intl.DateTimeFormat(locale, {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    }).formatToParts(date)
  const us = parts('en-US')
  const get = (ps: Intl.DateTimeFormatPart[], t: string): string => ps.find((p) => p.type === t)?.value ?? ''
  let zone = get(us, 'timeZoneName')
  if (/^GMT[+-]/.test(zone)) zone = get(parts('en-GB'), 'timeZoneName')
  const offset = /^GMT([+-])(\d{1,2})(?::(\d{2}))?$/.exec(zone)
  if (offset) zone = `${offset[1]}${offset[2]!.padStart(2, '0')}${offset[3] ?? ''}`
  return `${get(us, 'year')}-${get(us, 'month')}-${get(us, 'day')} ${get(us, 'hour')}:${get(us, 'minute')}:${get(us, 'second')} ${zone}`
}
