import { describe, expect, it } from 'vitest'
import { narrowToScope } from '../../src/app/snapshots.js'
import { configState } from '../../src/analysis/config-state.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import { configEntries } from '../../src/timeline/config.js'
import { smallSnapshot } from '../helpers/hostile.js'

/*
 * Issue 31, item 3: scope narrowing, table rows and history merging in linear time. Each path runs on an input
 * and on one ten times larger, and what is compared is the work it does: how many elements of the input's arrays
 * it reads (a linear path about 10 times as many, a quadratic one about 100 times), counted, never timed.
 */
const reads = { count: 0 }
/** The array, with every element read counted (indexing, for…of, some, filter and spreads all read by index). */
function counted<T>(items: T[]): T[] {
  return new Proxy(items, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++
      return Reflect.get(target, key, receiver) as unknown
    },
  })
}

function ratio(make: (n: number) => () => void, n: number): number {
  const work = (size: number) => {
    const run = make(size)
    reads.count = 0
    run()
    return reads.count
  }
  return work(n * 10) / work(n)
}

const chainNode = (i: number): KubeObject => ({
  apiVersion: 'cosmopilot.voluzi.com/v1',
  kind: 'ChainNode',
  metadata: { name: `node-${i}`, namespace: 'ns', uid: `u${i}`, creationTimestamp: '2026-01-01T00:00:00Z' },
  status: { phase: 'Running' },
})

function fleet(n: number): Snapshot {
  const snapshot = smallSnapshot()
  snapshot.objects = Array.from({ length: n }, (_, i) => chainNode(i))
  for (let i = 0; i < n * 2; i++) {
    snapshot.objects.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `e${i}`, namespace: 'ns' },
      involvedObject: { kind: 'ChainNode', name: `node-${i % n}` },
    })
  }
  snapshot.chainNodeRows = counted(Array.from({ length: n }, (_, i) => ({ namespace: 'ns', name: `node-${i}`, columns: [], cells: [] })))
  snapshot.objects = counted(snapshot.objects)
  return snapshot
}

describe('linear in the input', () => {
  it('doctor NAME -n NS narrows a bundle of many ChainNodes and their table rows in linear time', () => {
    const r = ratio((n) => {
      const snapshot = fleet(n)
      return () => {
        const narrowed = narrowToScope(snapshot, { kind: 'node', namespace: 'ns', name: 'node-1' })
        expect(narrowed.chainNodeRows).toHaveLength(1)
      }
    }, 1_000)
    expect(r).toBeLessThan(20)
  })

  it('every node table row is found in linear time over a fleet', () => {
    const r = ratio((n) => {
      const index = new SnapshotIndex(fleet(n))
      return () => {
        for (const node of index.list('ChainNode')) expect(index.tableRow(node)).toBeDefined()
      }
    }, 1_000)
    expect(r).toBeLessThan(20)
  })

  it('timeline merges a history whose config-hash goes back and forth in linear time, first-seen times intact', () => {
    const history = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        node: 'ns/node-0',
        at: new Date(Date.UTC(2026, 0, 2) + i * 1000).toISOString(),
        podUid: 'p1',
        configMapHash: i % 2 ? 'a' : 'b',
      }))
    const setup = (n: number) => {
      const snapshot = fleet(1)
      snapshot.observations = counted(history(n))
      const index = new SnapshotIndex(snapshot)
      return { index, node: index.list('ChainNode')[0] }
    }
    const { index, node } = setup(4)
    const entries = configEntries(index, node, '2026-01-03T00:00:00Z').filter((e) => e.kind === 'configmap-hash')
    // Each change is placed where its hash was first seen from there on.
    expect(entries.map((e) => e.at)).toEqual(['2026-01-02T00:00:01.000Z', '2026-01-02T00:00:02.000Z', '2026-01-02T00:00:03.000Z'])
    const r = ratio((n) => {
      const { index, node } = setup(n)
      return () => {
        configEntries(index, node, '2026-01-03T00:00:00Z')
        configState(index, node, Date.parse('2026-01-03T00:00:00Z'))
      }
    }, 5_000)
    expect(r).toBeLessThan(20)
  })
})
