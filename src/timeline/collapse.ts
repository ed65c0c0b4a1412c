import { compareText } from '../util/compare.js'
import type { RawEntry, TimelineEntry, TimelineWindow } from './types.js'

/**
 * What makes two lines "the same" for collapsing: numbers, heights, hashes, addresses and quoted
 * times vary between repeats of one message, so they are replaced before comparing.
 */
export function normaliseForGrouping(text: string): string {
  // Each pass only where it can change something (tested without a replacement): the result is the same.
  let out = text
  if (out.includes('-'))
    out = out
      .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
      .replace(/\d{4}-\d\d-\d\d[T ][\d:.]+(Z|[+-]\d\d:?\d\d)?/g, '<time>')
  // Most texts (a node's 200,000 Events) need neither pass: one loop says so, cheaper than the two patterns.
  const mayNeed = mayNeedHexOrSpacePass(out)
  if (mayNeed && LONG_HEX.test(out)) out = out.replace(/\b(0x)?[0-9a-f]*\d[0-9a-f]*\b/gi, (hex) => (hex.length >= 8 ? '<hex>' : hex))
  out = out.replace(/\d+(\.\d+)?/g, '<n>')
  if (mayNeed && UNUSUAL_SPACE.test(out)) out = out.replace(/\s+/g, ' ')
  return out.trim()
}

/** What the <hex> pass can replace: eight hex digits in a row, or 0x and six. */
export const LONG_HEX = /[0-9a-f]{8}|0x[0-9a-f]{6}/i
/** What the space pass can change: a space that is not " ", or two in a row. */
export const UNUSUAL_SPACE = /(?! )\s|\s\s/

const isHexDigit = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)

/**
 * False only where neither LONG_HEX nor UNUSUAL_SPACE matches (true may still match neither: the patterns decide):
 * no eight hex digits in a row, no "0x", no whitespace but " ", no two spaces in a row, nothing beyond ASCII.
 */
export function mayNeedHexOrSpacePass(text: string): boolean {
  let hexRun = 0
  let afterSpace = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (isHexDigit(c)) {
      if (++hexRun >= 8) return true
      afterSpace = false
    } else if (c === 32) {
      if (afterSpace) return true
      afterSpace = true
      hexRun = 0
    } else if (c < 32 || c >= 127 || c === 120 || c === 88) {
      // Whitespace (tab, line ends), beyond ASCII, or an x (of 0x): let the patterns look.
      if (c === 120 || c === 88 ? i > 0 && text.charCodeAt(i - 1) === 48 : true) return true
      hexRun = 0
      afterSpace = false
    } else {
      hexRun = 0
      afterSpace = false
    }
  }
  return false
}

/**
 * An entry's text is one row of a table: a stranger's message of megabytes would otherwise be copied by every
 * normalising pattern and printed whole. kubectl describe's Events column shows less.
 */
export const MAX_ENTRY_CHARS = 4096

function withinLength(entry: RawEntry): RawEntry {
  if (entry.text.length <= MAX_ENTRY_CHARS) return entry
  return { ...entry, text: entry.text.slice(0, MAX_ENTRY_CHARS), cutChars: entry.text.length - MAX_ENTRY_CHARS }
}

/** What makes two entries repeats of one another (events.ts merges Events by its parts as it reads them). */
export const groupKey = (entry: RawEntry) => `${entry.source}|${entry.kind}|${entry.subject.kind}/${entry.subject.name}|${normaliseForGrouping(entry.text)}`

/**
 * Merge repeats into one entry with its count and first and last time. The wording of the newest
 * repeat is kept: its numbers (a height, an attempt) are the ones a reader wants.
 */
export function collapse(raw: RawEntry[]): TimelineEntry[] {
  const groups = new Map<string, TimelineEntry>()
  // Each time parsed once, not once per comparison: a noisy node has hundreds of log lines.
  const byTime = raw.map((entry) => ({ entry: withinLength(entry), at: Date.parse(entry.at) })).sort((a, b) => a.at - b.at)
  // Entry times are ISO 8601 UTC with milliseconds (time.ts): they compare as text, with no parse per repeat.
  for (const { entry } of byTime) {
    const key = groupKey(entry)
    const last = entry.last ?? entry.at
    const count = entry.count ?? 1
    const seen = groups.get(key)
    if (!seen) {
      const { at, count: _count, last: _last, ...rest } = entry
      groups.set(key, { ...rest, first: at, last, count })
      continue
    }
    seen.count += count
    if (entry.at < seen.first) seen.first = entry.at
    if (last >= seen.last) {
      seen.last = last
      seen.text = entry.text
      seen.cutChars = entry.cutChars
      seen.level = entry.level
    }
  }
  return sortEntries([...groups.values()])
}

/** Oldest first; ties broken by source and text so the order is the same on every run. */
export function sortEntries(entries: TimelineEntry[]): TimelineEntry[] {
  return entries
    .map((entry) => ({ entry, first: Date.parse(entry.first) }))
    .sort(
      ({ entry: a, first: aFirst }, { entry: b, first: bFirst }) =>
        aFirst - bFirst ||
        compareText(a.source, b.source) ||
        compareText(`${a.subject.kind}/${a.subject.name}`, `${b.subject.kind}/${b.subject.name}`) ||
        compareText(a.text, b.text),
    )
    .map(({ entry }) => entry)
}

/** An entry belongs to a window when any of its repeats does: it began before the end and was last seen after the start. */
export function inWindow(entry: TimelineEntry, window: TimelineWindow): boolean {
  return Date.parse(entry.last) >= Date.parse(window.since) && Date.parse(entry.first) <= Date.parse(window.until)
}
