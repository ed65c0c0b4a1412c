import { describe, expect, it } from 'vitest'
import { statusRows } from '../../../src/analysis/status-model.js'
import { renderStatusText } from '../../../src/render/status.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { loadBundle } from '../../helpers/bundles.js'

// Issue 40 item 7: status -o wide of validators has one JAILED column, the CRD's when it prints one.
describe('status -o wide of a validator', () => {
  const headersOf = (table: string) => table.split('\n')[0].split(/\s{2,}/)

  it("shows JAILED once: the CRD's column, not a second one of the same field", async () => {
    const index = new SnapshotIndex(await loadBundle('legacy-signing'))
    const table = renderStatusText(index, statusRows(index), { withNamespace: false, wide: true })
    const headers = headersOf(table)
    expect(headers.filter((h) => h === 'JAILED')).toHaveLength(1)
    expect(headers).toEqual(expect.arrayContaining(['SIGNED', 'MISSED', 'POWER']))
    // Every row has a cell under every header.
    for (const line of table.split('\n').slice(1)) expect(line.split(/\s{2,}/)).toHaveLength(headers.length)
  })

  it('keeps our JAILED column where the CRD prints none', async () => {
    const snapshot = await loadBundle('legacy-signing')
    for (const row of snapshot.chainNodeRows) {
      const at = row.columns.findIndex((c) => c.name === 'Jailed')
      row.columns = row.columns.filter((_, i) => i !== at)
      row.cells = row.cells.filter((_, i) => i !== at)
    }
    const index = new SnapshotIndex(snapshot)
    const headers = headersOf(renderStatusText(index, statusRows(index), { withNamespace: false, wide: true }))
    expect(headers.filter((h) => h === 'JAILED')).toHaveLength(1)
    expect(headers.indexOf('JAILED')).toBe(headers.indexOf('POWER') + 1)
  })
})
