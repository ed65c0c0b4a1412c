/**
 * kubectl's plain aligned columns: upper-case headers, three spaces between columns, no borders. Cells are
 * printed as given; a cell with newlines takes several lines. Linear in the number of rows: a bundle can hold
 * 300,000 events (cli-table3, used before, spreads rows as arguments and lays them out in quadratic time).
 */
export function columns(headers: string[], rows: string[][], options: { noHeaders?: boolean } = {}): string {
  const table = [headers.map((h) => h.toUpperCase()), ...rows].map((row) => row.map((cell) => String(cell).split('\n')))
  const widths: number[] = []
  for (const row of table) {
    row.forEach((lines, i) => {
      for (const line of lines) widths[i] = Math.max(widths[i] ?? 0, displayWidth(line))
    })
  }
  const out: string[] = []
  for (const row of table) {
    const height = row.reduce((most, lines) => Math.max(most, lines.length), 1)
    for (let at = 0; at < height; at++) {
      out.push(
        row
          .map((lines, i) => {
            const text = lines[at] ?? ''
            return i === row.length - 1 ? text : text + ' '.repeat(widths[i] - displayWidth(text))
          })
          .join('   ')
          .trimEnd(),
      )
    }
  }
  // Headers still size the columns with --no-headers (as kubectl's); their line is dropped.
  return (options.noHeaders ? out.slice(1) : out).join('\n')
}

// eslint-disable-next-line no-control-regex
const COLOUR = /\u001b\[[0-9;]*m/g

/** Columns a text takes on a terminal: colour codes take none, East Asian wide characters and emoji take two. */
export function displayWidth(text: string): number {
  let width = 0
  for (const char of text.includes('\u001b') ? text.replace(COLOUR, '') : text) {
    const code = char.codePointAt(0)!
    if (code < 0x20 || (code >= 0x7f && code < 0xa0) || (code >= 0x300 && code <= 0x36f) || code === 0x200d || (code >= 0xfe00 && code <= 0xfe0f)) continue
    width += isWide(code) ? 2 : 1
  }
  return width
}

function isWide(code: number): boolean {
  return (
    code >= 0x1100 &&
    (code <= 0x115f ||
      code === 0x2329 ||
      code === 0x232a ||
      (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
      (code >= 0xac00 && code <= 0xd7a3) ||
      (code >= 0xf900 && code <= 0xfaff) ||
      (code >= 0xfe30 && code <= 0xfe6f) ||
      (code >= 0xff00 && code <= 0xff60) ||
      (code >= 0xffe0 && code <= 0xffe6) ||
      (code >= 0x1f300 && code <= 0x1f64f) ||
      (code >= 0x1f900 && code <= 0x1f9ff) ||
      (code >= 0x20000 && code <= 0x3fffd))
  )
}

/** A describe-style block: "Key:   value" lines aligned at one column, nested by two spaces. */
export function describeBlock(pairs: [string, string | undefined][], indent = 0): string {
  // kubectl aligns a describe section at one column; 14 fits its top-level labels ("Annotations:  ").
  const width = Math.max(14 - indent, ...pairs.map(([key]) => key.length + 3))
  const pad = ' '.repeat(indent)
  return pairs.map(([key, value]) => `${pad}${`${key}:`.padEnd(width)}${value === undefined || value === '' ? '<none>' : value}`).join('\n')
}
