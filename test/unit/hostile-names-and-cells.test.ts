import { describe, expect, it } from 'vitest'
import { selectRules } from '../../src/app/doctor.js'
import { timelines } from '../../src/app/timeline.js'
import { compareConfigs } from '../../src/analysis/config-diff.js'
import { mentionsName } from '../../src/analysis/operator-logs.js'
import { statusRows } from '../../src/analysis/status-model.js'
import { renderConfigDiff } from '../../src/render/config-hash.js'
import { renderStatusText } from '../../src/render/status.js'
import { renderTimeline } from '../../src/render/timeline.js'
import { plainPalette } from '../../src/render/palette.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { findObject, useBundles } from '../helpers/bundles.js'

const load = useBundles('healthy', 'config-change-restart')

/** The snapshot with one name replaced everywhere it appears (objects, owners, Events, logs, tables), as a consistent bundle would carry it. */
const renamed = (snapshot: Snapshot, from: string, to: string): Snapshot => JSON.parse(JSON.stringify(snapshot).replaceAll(from, to)) as Snapshot

describe('the last hostile bundles of issue 44', () => {
  it('a node name of 1 MB, consistent across the files: timeline --all reads it (no pattern is compiled from a name)', () => {
    const big = 'n'.repeat(1_000_000)
    const snapshot = renamed(load('healthy'), 'fullnode-0', big)
    expect(new SnapshotIndex(snapshot).operatorFor(new SnapshotIndex(snapshot).chainNodes().find((n) => n.metadata.name === big)!)).toBeDefined()
    const clusters = timelines([snapshot], selectRules({}), {})
    expect(clusters[0].nodes.map((n) => n.node.name)).toContain(big)
    expect(renderTimeline('text', clusters, plainPalette, true)).toContain(big)
  })

  it('a name is a word of its own in a log line, found without a regular expression', () => {
    expect(mentionsName('reconciling fullnode-0 now', 'fullnode-0')).toBe(true)
    expect(mentionsName('reconciling fullnode-01 now', 'fullnode-0')).toBe(false)
    expect(mentionsName('x-fullnode-0', 'fullnode-0')).toBe(false)
    expect(mentionsName('"name":"fullnode-0"', 'fullnode-0')).toBe(true)
    expect(mentionsName('fullnode-0', 'fullnode-0')).toBe(true)
    expect(mentionsName('a (.*)+ b', '(.*)+')).toBe(true)
  })

  it('table cells that are objects with toString and valueOf keys are shown as data, and columns named like inherited members are data', () => {
    const snapshot = load('healthy')
    const row = snapshot.chainNodeRows[0]
    row.cells = row.cells.map((_, i) => (i === 1 ? JSON.parse('{"toString":1,"valueOf":"x"}') : i === 2 ? JSON.parse('{"valueOf":{}}') : row.cells[i]))
    row.columns.push({ name: 'constructor', type: 'string', priority: 0 }, { name: '__proto__', type: 'string', priority: 0 })
    row.cells.push('c', 'p')
    const index = new SnapshotIndex(snapshot)
    const rows = statusRows(index)
    const text = renderStatusText(index, rows, { withNamespace: false, wide: true })
    expect(text).toContain('{"toString":1,"valueOf":"x"}')
    expect(rows.find((r) => r.name === row.name)!.server).toMatchObject({ constructor: 'c' })
    expect(Object.getOwnPropertyDescriptor(rows.find((r) => r.name === row.name)!.server, '__proto__')?.value).toBe('p')
  })

  it('ConfigMap keys named constructor and toString are files of their own in config-hash diff, never undefined', () => {
    const before = load('config-change-restart')
    const after = load('config-change-restart')
    const node = new SnapshotIndex(before).chainNodes()[0]
    const name = node.metadata.name
    findObject(before, 'ConfigMap', name).data = JSON.parse('{"constructor":"a = 1","toString":"b = 1","config.toml":"x = 1\\n[constructor]\\ny = 1"}')
    findObject(after, 'ConfigMap', name).data = JSON.parse('{"toString":"b = 2","__proto__":"c = 1","config.toml":"x = 1\\n[toString]\\nz = 1"}')
    const comparison = compareConfigs({ snapshot: before, source: 'a' }, { snapshot: after, source: 'b' }, name)
    expect(comparison.changes).toEqual([
      { file: '__proto__', path: '(whole file)', kind: 'added' },
      { file: 'config.toml', path: 'constructor', kind: 'removed', before: { y: 1 } },
      { file: 'config.toml', path: 'toString', kind: 'added', after: { z: 1 } },
      { file: 'constructor', path: '(whole file)', kind: 'removed' },
      // Not TOML by its name: the file is one value.
      { file: 'toString', path: '(whole file)', kind: 'changed', before: 'b = 1', after: 'b = 2' },
    ])
    expect(renderConfigDiff(comparison)).not.toMatch(/undefined|\[object|function/)
  })
})
