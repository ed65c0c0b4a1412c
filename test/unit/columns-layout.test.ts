import fc from 'fast-check'
import stringWidth from 'string-width'
import { describe, expect, it } from 'vitest'
import { columns } from '../../src/render/columns.js'

const HEADERS = ['name', 'status', 'message']
const ROWS: Record<string, string[][]> = {
  plain: [
    ['fullnode-0', 'Running', 'Node successfully started'],
    ['validator-10', 'Syncing', ''],
  ],
  'empty cells and a wide last column': [
    ['', '', 'x'.repeat(300)],
    ['a', '', ''],
  ],
  'several lines in a cell': [
    ['pod/x', 'Waiting', 'line one\nline two'],
    ['pod/yy\nsecond', 'Ready', 'single'],
  ],
  'East Asian wide characters and emoji': [
    ['节点-0', 'Running', '同步中'],
    ['node-🟢', 'Ready', 'ok'],
  ],
  'colour codes take no columns': [
    ['\u001b[31mred\u001b[39m', 'Error', 'message'],
    ['plain', 'Ready', 'message'],
  ],
}

describe('columns: the linear layout for large tables prints what cli-table3 prints', () => {
  it.each(Object.entries(ROWS))('%s', (_name, rows) => {
    const table = columns(HEADERS, rows, { layout: 'cli-table3' })
    expect(columns(HEADERS, rows, { layout: 'linear' })).toBe(table)
    expect(table.split('\n')[0]).toMatch(/^NAME {3,}STATUS {3,}MESSAGE$/)
  })

  // Plain tables of any size now take the linear layout: it must print what cli-table3 prints for any text.
  const PIECES = ['a', 'Z', '0', ' ', '  ', '-', '/', '(x3 over 5m)', '\n', '\t', '\r', 'é', 'e\u0301', '节点', '🟢', '👩‍💻', '\u200b', '\u00ad', 'ｱ', '\u0000']
  const cell = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((parts) => parts.join(''))
  it('prints what cli-table3 prints for any cells (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { maxLength: 6 }), (width, cells) => {
        const headers = HEADERS.concat(['age', 'object']).slice(0, width)
        const rows = cells.map((row) => row.slice(0, width))
        expect(columns(headers, rows, { layout: 'linear' })).toBe(columns(headers, rows, { layout: 'cli-table3' }))
      }),
      { numRuns: 300 },
    )
  })

  it('counts printable ASCII as one column a character, as string-width does', () => {
    const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i))
    const pairs = printable.flatMap((a) => printable.map((b) => a + b))
    expect(pairs.filter((pair) => stringWidth(pair) !== 2)).toEqual([])
    const rows = printable.map((char) => [char.repeat(3), 'x'])
    expect(columns(['p', 'q'], rows)).toBe(columns(['p', 'q'], rows, { layout: 'cli-table3' }))
  })

  it('drops the header line with noHeaders, sized as with it', () => {
    const rows = ROWS.plain
    const withHeaders = columns(HEADERS, rows).split('\n')
    expect(columns(HEADERS, rows, { noHeaders: true }).split('\n')).toEqual(withHeaders.slice(1))
  })

  it('lays out 300,000 rows', () => {
    const rows = Array.from({ length: 300_000 }, (_, i) => [`node-${i}`, 'Running', 'ok'])
    const lines = columns(HEADERS, rows).split('\n')
    expect(lines).toHaveLength(300_001)
    expect(lines[300_000]).toBe('node-299999   Running   ok')
  })
})
