/**
 * Markdown built from a stranger's text. An incident document is pasted into a ticket and rendered there, so
 * text from a cluster or a bundle (names, Event messages, errors, log lines, URLs) must not be able to
 * close a code span or a fence, start a heading, inject raw HTML (`<img onerror>`), or make a link, an image,
 * a mention or an issue reference. It goes out in one of three ways, each closed by construction:
 * - mdText: escaped inline, on one line; `<`, `>` and `&` as entities, the other punctuation Markdown acts on
 *   behind a backslash, and every word a renderer would link (a URL, `www.`, an address or mention with `@`,
 *   an issue reference with `#`) inside a code span, where nothing links;
 * - mdCode: a code span whose backtick fence is longer than any run of backticks in the text;
 * - mdFence: a fenced block whose fence is longer than any run of backticks in its lines.
 * Control characters are made visible in all three (render/visible.ts).
 */

import { visible } from './visible.js'

/** Line breaks and tabs become spaces (a blank line would end the paragraph or the table), controls made visible (a CR as \\r). */
const flatten = (text: unknown): string => visible(text).replace(/[\n\t]+/g, ' ')

/** The longest run of backticks in the text (linear: one pass). */
function longestBacktickRun(text: string): number {
  let longest = 0
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 0x60) longest = Math.max(longest, ++run)
    else run = 0
  }
  return longest
}

/** `|` ends a table cell even inside a code span (GFM); escaped, it reads as `|` there too. */
const pipes = (text: string) => text.replace(/\|/g, '\\|')

/** An inline code span holding the text exactly (on one line); '' for empty text, which no code span can hold. */
export function mdCode(text: unknown, inTable = false): string {
  const value = flatten(text)
  if (value === '') return ''
  const fence = '`'.repeat(longestBacktickRun(value) + 1)
  // CommonMark strips one space on each side when both are there, and a backtick next to the fence would join it.
  const pad = value.startsWith('`') || value.endsWith('`') || (value.startsWith(' ') && value.endsWith(' ')) ? ' ' : ''
  const span = `${fence}${pad}${value}${pad}${fence}`
  return inTable ? pipes(span) : span
}

/** Punctuation Markdown acts on inline: escapes, code, emphasis, strikethrough, links and images, table cells, a heading's closing #. */
const PUNCTUATION = /[\\`*_[\]|~#]/g
const ENTITY: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' }

/** A word a renderer would turn into a link, a mention or a reference: shown as code instead. */
const LINKABLE = /[a-z][a-z0-9+.-]*:\/\/|www\.|@|#\w/i

/**
 * Text on one line that reads as itself: no HTML, no emphasis, no code span, no link it did not ask for. Safe in
 * a paragraph, a heading, a list item and a table cell; never at the start of a line (a caller writes its
 * own words first).
 */
export function mdText(text: unknown, inTable = false): string {
  return flatten(text)
    .trim()
    .split(/( +)/)
    .map((word) => (LINKABLE.test(word) ? mdCode(word, inTable) : word.replace(/[<>&]/g, (c) => ENTITY[c]).replace(PUNCTUATION, (c) => `\\${c}`)))
    .join('')
}

/** Text in a table cell: as mdText, pipes escaped inside code spans too. */
export const mdCell = (text: unknown): string => mdText(text, true)

/** A fenced code block holding these lines exactly: its fence is longer than any run of backticks in them. */
export function mdFence(lines: string[], info = 'text'): string[] {
  const body = lines.map((line) => visible(line))
  // A loop, not Math.max(...runs): spreading tens of thousands of lines overflows the stack.
  let longest = 2
  for (const line of body) longest = Math.max(longest, longestBacktickRun(line))
  const fence = '`'.repeat(longest + 1)
  return [`${fence}${info}`, ...body, fence]
}
