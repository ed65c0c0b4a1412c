import Table from 'cli-table3'

/** kubectl's plain aligned columns: upper-case headers, three spaces between columns, no borders. Cells are printed as given. */
export function columns(headers: string[], rows: string[][], options: { noHeaders?: boolean } = {}): string {
  const table = new Table({
    // Headers still size the columns with --no-headers (as kubectl's); their line is dropped below.
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
  // One by one: a list of 300,000 events would overflow the stack as spread arguments.
  for (const row of rows) table.push(row)
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
  return (options.noHeaders ? lines.slice(1) : lines).join('\n')
}

/** A describe-style block: "Key:   value" lines aligned at one column, nested by two spaces. */
export function describeBlock(pairs: [string, string | undefined][], indent = 0): string {
  // kubectl aligns a describe section at one column; 14 fits its top-level labels ("Annotations:  ").
  const width = Math.max(14 - indent, ...pairs.map(([key]) => key.length + 3))
  const pad = ' '.repeat(indent)
  return pairs.map(([key, value]) => `${pad}${`${key}:`.padEnd(width)}${value === undefined || value === '' ? '<none>' : value}`).join('\n')
}
