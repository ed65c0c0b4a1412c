import fc from 'fast-check'
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

  // Every table without colour codes takes the linear layout: it must print what cli-table3 prints for any cells.
  it('prints what cli-table3 prints for any cells without colour codes, and for colour within a line', () => {
    const piece = fc.constantFrom('a', 'Z', '0', ' ', '  ', '-', '/', '<none>', '…', 'é', '节', '🟢', '\n', '\u001b[31mred\u001b[39m', '\u001b[1mB\u001b[22m')
    const cell = fc.array(piece, { maxLength: 8 }).map((pieces) => pieces.join(''))
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.array(cell, { minLength: 5, maxLength: 5 }), { maxLength: 6 }),
        fc.boolean(),
        (n, cells, noHeaders) => {
          const headers = ['name', 'status', 'ready', 'age', 'message'].slice(0, n)
          const rows = cells.map((row) => row.slice(0, n))
          expect(columns(headers, rows, { layout: 'linear', noHeaders })).toBe(columns(headers, rows, { layout: 'cli-table3', noHeaders }))
        },
      ),
      { numRuns: 1000 },
    )
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
