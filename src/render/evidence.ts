import { humanAge } from '../util/duration.js'
import type { Evidence } from '../engine/define-rule.js'
import { visible } from './visible.js'
import { wrap } from './width.js'
import { describeLogLine, logLineSummary } from '../snapshot/log-format.js'
import { absoluteTime, timesIn } from './timeline-time.js'

/** Evidence as a reader sees it: repeats folded into one line with a count, the way kubectl folds Events. */
export interface EvidenceLine {
  source: string
  text: string
  /** The last time it was seen: RFC 3339 to the second in UTC; evidenceText shows it in the report's zone. */
  at?: string
  count: number
  /** How long the repeats spread over, "2m", when there are several. */
  over?: string
}

/** RFC 3339 to the second in UTC, for reports read elsewhere (markdown, JUnit); text reports use absoluteTime. */
export const shortTime = (at: string): string => absoluteTime(at, true)

export interface EvidenceTextOptions {
  paintSource?: (source: string) => string
  /** Times in UTC (--utc), or else in the local zone. */
  utc?: boolean
}

/**
 * What stays of a line when what changes at every repeat is masked: times, counters, uuids, hashes,
 * generated names' suffixes. Two lines of the same shape from the same source are one repeated message.
 */
export function shapeOf(text: string): string {
  return text
    .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '#')
    .replace(/\b(?=[0-9a-z]*\d)[0-9a-z]{5,}\b/gi, '#')
    .replace(/\d+(\.\d+)?/g, '#')
}

/** Fold repeats (same source, same shape), showing the latest; then order: what has no time (state) first, the rest oldest first. */
export function presentEvidence(evidence: Evidence[]): EvidenceLine[] {
  const groups = new Map<string, Evidence[]>()
  for (const item of evidence.map(readable)) {
    const key = `${item.source}\u0000${shapeOf(item.text)}`
    // Pushed in place: copying the list for each item is quadratic when a fleet folds thousands of lines.
    const group = groups.get(key)
    if (group) group.push(item)
    else groups.set(key, [item])
  }
  const lines = [...groups.values()].map((items) => {
    const latest = items.reduce((a, b) => ((b.at ?? '') >= (a.at ?? '') ? b : a))
    // A loop, not Math.max(...times): spreading tens of thousands of arguments overflows the stack.
    let last: number | undefined
    let first: number | undefined
    for (const item of items) {
      const time = item.at ? Date.parse(item.at) : NaN
      if (Number.isNaN(time)) continue
      if (last === undefined || time > last) last = time
      if (first === undefined || time < first) first = time
    }
    return {
      source: latest.source,
      text: latest.text,
      at: last === undefined ? undefined : shortTime(new Date(last).toISOString()),
      count: items.length,
      over: items.length > 1 && last !== undefined ? humanAge(last - first!) : undefined,
      sortKey: last ?? -Infinity,
    }
  })
  // A stable sort keeps the rule's own order among lines with no time.
  return lines.sort((a, b) => a.sortKey - b.sortKey).map(({ sortKey: _sortKey, ...line }) => line)
}

/**
 * A log line as a reader needs it: level, message and the fields that matter, not the JSON or the klog
 * header it was written in (which would fill the line before the message). Its time is the line's own when
 * the log was read without one.
 */
function readable(item: Evidence): Evidence {
  if (item.kind !== 'log') return item
  return { ...item, text: logLineSummary(item.text), at: item.at ?? describeLogLine(item.text).time }
}

/** "(x5 over 2m)" for folded repeats, "" for a single line. */
export const repeatSuffix = (line: EvidenceLine) => (line.count > 1 ? ` (x${line.count}${line.over ? ` over ${line.over}` : ''})` : '')

/**
 * One evidence line, never cut: the message is what the reader came for, and two lines cut at the same
 * place would look identical. Within `width` it wraps under itself; with no width (piped, markdown) it stays one line.
 */
export function evidenceText(line: EvidenceLine, indent: string, width: number | undefined, options: EvidenceTextOptions = {}): string {
  const { paintSource = (s: string) => s, utc = true } = options
  const head = `${indent}${line.at ? `${visible(absoluteTime(line.at, utc))}  ` : ''}`
  const source = visible(line.source)
  const body = `${source}: ${visible(timesIn(line.text, utc))}${repeatSuffix(line)}`
  const lines = width === undefined || head.length + body.length <= width ? [head + body] : wrap(body, width, head, `${indent}    `)
  // Painted after wrapping, so escape codes do not count towards the width; only a source left whole is painted.
  if (lines[0].startsWith(`${head}${source}:`)) lines[0] = `${head}${paintSource(source)}${lines[0].slice(head.length + source.length)}`
  return lines.join('\n')
}
