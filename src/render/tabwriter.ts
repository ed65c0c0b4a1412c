/**
 * Go's text/tabwriter as kubectl describe uses it (padding 2): cells end with a tab, and a column is
 * aligned over each block of consecutive lines that have a cell in it. A line without that cell ends
 * the block, so nested sections align on their own, exactly as kubectl's output does.
 */
export function alignTabs(lines: string[], padding = 2): string[] {
  const cells = lines.map((line) => line.split('\t'))
  const out: string[] = []
  const widths: number[] = []
  const write = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const row = cells[i]
      out.push(
        row
          .map((cell, j) => (j < row.length - 1 && j < widths.length ? cell.padEnd(widths[j]) : cell))
          .join('')
          .trimEnd(),
      )
    }
  }
  const format = (line0: number, line1: number) => {
    const column = widths.length
    for (let i = line0; i < line1; i++) {
      if (column >= cells[i].length - 1) continue
      write(line0, i)
      const start = i
      let width = 0
      for (; i < line1 && column < cells[i].length - 1; i++) width = Math.max(width, cells[i][column].length + padding)
      widths.push(width)
      format(start, i)
      widths.pop()
      line0 = i
      i--
    }
    write(line0, line1)
  }
  format(0, cells.length)
  return out
}
