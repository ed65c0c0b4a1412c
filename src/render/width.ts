/** Text output stays within this many columns on a terminal; JSON always carries the full values. */
export const TEXT_WIDTH = 120

/** The width tables are cut to: 120 columns on a terminal, none when piped (a pipe gets the full values, as kubectl's). */
export function tableWidth(stream: { isTTY?: boolean } = process.stdout): number | undefined {
  return stream.isTTY ? TEXT_WIDTH : undefined
}

/** Cut a line to `width` characters, marking the cut with an ellipsis. */
export function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`
}

/** Wrap words at `width`, the first line after `first`, the following ones after `rest` (same length, spaces). */
export function wrap(text: string, width: number, first: string, rest = ' '.repeat(first.length)): string[] {
  const lines: string[] = []
  let line = first
  let empty = true
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line)
      line = rest + word
    } else line += (empty ? '' : ' ') + word
    empty = false
  }
  lines.push(line)
  return lines
}

/** Cut every line to `width` (undefined: leave them whole). */
export function fitWidth(text: string, width: number | undefined): string {
  return width === undefined
    ? text
    : text
        .split('\n')
        .map((line) => cut(line, width))
        .join('\n')
}
