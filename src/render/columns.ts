import Table from 'cli-table3'
import stringWidth from 'string-width'

/**
 * cli-table3 spreads rows as arguments and lays a table out in time that grows with the square of its rows;
 * a bundle can hold 300,000 events. Above this many rows the same layout is done in one linear pass
 * (a unit test holds the two to the same output).
 */
export const CLI_TABLE_MAX_ROWS = 2000

/**
 * kubectl's plain aligned columns: upper-case headers, three spaces between columns, no borders. Cells are
 * printed as given; a cell with newlines takes several lines.
 */
export function columns(headers: string[], rows: string[][], options: { noHeaders?: boolean; layout?: 'cli-table3' | 'linear' } = {}): string {
  const layout = options.layout ?? (rows.length > CLI_TABLE_MAX_ROWS || rows.every(plainCells) ? 'linear' : 'cli-table3')
  const lines = layout === 'cli-table3' ? cliTableLines(headers, rows) : linearLines(headers, rows)
  // Headers still size the columns with --no-headers (as kubectl's); their line is dropped here.
  return (options.noHeaders ? lines.slice(1) : lines).join('\n')
}

function cliTableLines(headers: string[], rows: string[][]): string[] {
  const table = new Table({
    head: headers.map((h) => h.toUpperCase()),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '   ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
  })
  for (const row of rows) table.push(row)
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
}

/**
 * Cells without colour codes lay out the same both ways, and the linear pass costs far less: cli-table3
 * measured every cell several times over, a fifth of a timeline run for thirty rows. Colour codes that span
 * lines are re-applied per line by cli-table3, so painted cells keep it.
 */
const plainCells = (row: unknown[]) => row.every((cell) => typeof cell === 'string' && !cell.includes('\u001b'))

/** Printable ASCII is one column a character; string-width, which also strips colour codes and finds emoji, is for the rest. */
const textWidth = (text: string) => (/^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text))

function linearLines(headers: string[], rows: string[][]): string[] {
  const table = [headers.map((h) => h.toUpperCase()), ...rows].map((row) => row.map((cell) => String(cell).split('\n')))
  const widths: number[] = []
  for (const row of table) {
    row.forEach((lines, i) => {
      for (const line of lines) widths[i] = Math.max(widths[i] ?? 0, textWidth(line))
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
            return i === row.length - 1 ? text : text + ' '.repeat(widths[i] - textWidth(text))
          })
          .join('   ')
          .trimEnd(),
      )
    }
  }
  return out
}

/** A describe-style block: "Key:   value" lines aligned at one column, nested by two spaces. */
export function describeBlock(pairs: [string, string | undefined][], indent = 0): string {
  // kubectl aligns a describe section at one column; 14 fits its top-level labels ("Annotations:  ").
  const width = Math.max(14 - indent, ...pairs.map(([key]) => key.length + 3))
  const pad = ' '.repeat(indent)
  return pairs.map(([key, value]) => `${pad}${`${key}:`.padEnd(width)}${value === undefined || value === '' ? '<none>' : value}`).join('\n')
}
