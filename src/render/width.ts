import { asInvoked } from '../util/invocation.js'
/** Prose (doctor's causes and actions) wraps at this many columns when there is no terminal to measure. */
export const TEXT_WIDTH = 120

/** No terminal is taken to be narrower than this: below it, tables and reports would be unreadable anyway. */
export const MIN_WIDTH = 80

/**
 * The terminal's width (never less than 80), or undefined when output is not a terminal. Prose wraps at it;
 * tables are never cut to it (kubectl cuts no cell: a long row wraps in the terminal). KUBECTL_CHAINNODE_COLUMNS
 * stands for a terminal that wide (the goldens' width matrix, a terminal that does not report its size).
 */
export function tableWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout): number | undefined {
  const forced = Number(process.env.KUBECTL_CHAINNODE_COLUMNS)
  if (Number.isInteger(forced) && forced > 0) return Math.max(MIN_WIDTH, forced)
  return stream.isTTY ? Math.max(MIN_WIDTH, stream.columns || TEXT_WIDTH) : undefined
}

/** Where prose wraps: the terminal's width, or TEXT_WIDTH when piped (wrapping loses nothing). */
export const proseWidth = (width: number | undefined) => width ?? TEXT_WIDTH

/** Cut a line to `width` characters, marking the cut with an ellipsis. */
export function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`
}

/** Wrap words at `width`, the first line after `first`, the following ones after `rest` (same length, spaces). */
export function wrap(text: string, width: number, first: string, rest = ' '.repeat(first.length)): string[] {
  const lines: string[] = []
  let line = first
  let empty = true
  // Hints are worded as the user invoked us before the words are counted, so "kubectl " cannot push a line past the width.
  for (const word of asInvoked(text).split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = rest + word
    } else line += (empty ? '' : ' ') + word
    empty = false
    // A word longer than a whole line (a key, a hash, a JSON value) is folded as a terminal would, never cut:
    // piece by piece from offsets, so a megabyte of one word costs its length, not its length squared.
    const room = width - rest.length
    if (line.length > width && room >= 20) {
      const head = line.slice(0, width)
      const tail = line.slice(width)
      lines.push(head)
      let at = 0
      for (; tail.length - at > room; at += room) lines.push(rest + tail.slice(at, at + room))
      line = rest + tail.slice(at)
    }
  }
  lines.push(line)
  return lines
}
