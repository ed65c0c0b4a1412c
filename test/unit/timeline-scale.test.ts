import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { configState } from '../../src/analysis/config-state.js'
import { allEntries } from '../../src/timeline/build.js'
import { configEntries } from '../../src/timeline/config.js'
import { configKeyDigests } from '../../src/analysis/config-diff.js'
import type { ConfigMap } from '../../src/snapshot/kinds.js'
import { LONG_HEX, mayNeedHexOrSpacePass, normaliseForGrouping, UNUSUAL_SPACE } from '../../src/timeline/collapse.js'
import { isoTime } from '../../src/timeline/time.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { Observation, Snapshot } from '../../src/snapshot/types.js'
import { useBundles } from '../helpers/bundles.js'
import { addNodeEvents } from '../helpers/node-events.js'

const load = useBundles('healthy')

/** The healthy bundle with `count` Events about fullnode-0's ChainNode and Pod, each message with its own numbers. */
const withEvents = (count: number): Snapshot => addNodeEvents(load('healthy'), 'sc-healthy', 'fullnode-0', count)

describe('timeline at bundle scale (bench/timeline.ts --events 200000 measures it)', () => {
  it('parses each Event time about once: repeats compare as ISO text, conversions are remembered', () => {
    const count = 20_000
    const index = new SnapshotIndex(withEvents(count))
    const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
    // The Events are looked up (and sorted) before counting: that cost is doctor's as well.
    index.eventsFor(node)
    index.eventsFor(index.podOf(node))
    const parse = vi.spyOn(Date, 'parse')
    try {
      const entries = allEntries(index, node, [])
      // 20,000 Events in seven kinds of message collapse into a few entries.
      expect(entries.filter((e) => e.source === 'event' && e.count > 1).length).toBeLessThan(20)
      // Before: seven parses per Event (two conversions, the sort, four comparisons per repeat), then one (its
      // time); now none: the sort's parse is kept, and a first time equal to the last is not parsed again.
      expect(parse.mock.calls.length).toBeLessThan(count / 10)
    } finally {
      parse.mockRestore()
    }
  })

  it('the grouping of repeats is what the five passes gave, though it runs only the passes that can change a text', () => {
    const reference = (text: string) =>
      text
        .replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>')
        .replace(/\d{4}-\d\d-\d\d[T ][\d:.]+(Z|[+-]\d\d:?\d\d)?/g, '<time>')
        .replace(/\b(0x)?[0-9a-f]*\d[0-9a-f]*\b/gi, (hex) => (hex.length >= 8 ? '<hex>' : hex))
        .replace(/\d+(\.\d+)?/g, '<n>')
        .replace(/\s+/g, ' ')
        .trim()
    const piece = fc.constantFrom('0x', 'abc', '1234', 'deadbeef', '-', ' ', '  ', '\t', '\n', '2026-11-22T10:00:00Z', '5', '.', 'Z', 'f', 'g', '\u00a0', ':')
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 20 }).map((parts) => parts.join('')),
        (text) => normaliseForGrouping(text) === reference(text),
      ),
      { numRuns: 5000, seed: 44 },
    )
  })

  it('the loop that skips the hex and space passes skips them only where their patterns find nothing', () => {
    const piece = fc.constantFrom(
      '0',
      'x',
      'X',
      '0x',
      '0X',
      'a',
      'F',
      'g',
      '1234',
      'deadbee',
      'ABCDEF',
      ' ',
      '  ',
      '\t',
      '\r',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\u00e9',
      '-',
    )
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 16 }).map((parts) => parts.join('')),
        (text) => mayNeedHexOrSpacePass(text) || (!LONG_HEX.test(text) && !UNUSUAL_SPACE.test(text)),
      ),
      { numRuns: 20_000, seed: 44 },
    )
    // What a noisy node's Events say needs neither pass; each pattern's own case is still looked at.
    expect(mayNeedHexOrSpacePass('HeightUpdated: height 1199991 reached at attempt 74 (peer 12)')).toBe(false)
    expect(['a0x12f', 'cafeBABE', 'a  b', 'a\tb', 'caf\u00e9'].map(mayNeedHexOrSpacePass)).toEqual([true, true, true, true, true])
  })

  it('an index not asked for Events does not index them (unreadLogs builds one per bundle read); asked, it finds them', () => {
    const snapshot = withEvents(1000)
    let read = 0
    for (const obj of snapshot.objects)
      if (obj.kind === 'Event') {
        const involved = (obj as { involvedObject?: unknown }).involvedObject
        Object.defineProperty(obj, 'involvedObject', {
          get: () => (read++, involved),
          enumerable: true,
        })
      }
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
    index.podOf(node)
    index.logsFor(node.metadata.namespace, node.metadata.name, 'node')
    expect(read).toBe(0)
    expect(index.eventsFor(node).length + index.eventsFor(index.podOf(node)).length).toBeGreaterThanOrEqual(1000)
    expect(index.get('Event', 'sc-healthy', 'fullnode-0.events7')?.metadata.name).toBe('fullnode-0.events7')
  })

  it("takes the configuration state the rules read: a node's Events are not looked through again for its restarts", () => {
    const index = new SnapshotIndex(withEvents(1000))
    const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
    const now = Date.parse(index.snapshot.collectedAt)
    // As config-change-restart asks for it.
    const state = configState(index, node, now)
    const events = index.eventsFor(node)
    const filter = vi.spyOn(events, 'filter')
    allEntries(index, node, [])
    expect(filter).not.toHaveBeenCalled()
    expect(configState(index, node, now)).toBe(state)
    // Another time is another question.
    expect(configState(index, node, now + 3_600_000)).not.toBe(state)
    expect(filter).toHaveBeenCalledTimes(1)
  })

  it("fingerprints a node's configuration only where a change since its last observation is named by its keys", () => {
    const snapshot = load('healthy')
    const configMap = snapshot.objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'fullnode-0') as ConfigMap
    const digests = configKeyDigests(configMap.data!)!
    const changed = Object.keys(digests)[0]
    let listed = 0
    configMap.data = new Proxy(configMap.data!, { ownKeys: (data) => (listed++, Reflect.ownKeys(data)) })
    const earlier = { node: 'sc-healthy/fullnode-0', at: '2026-01-01T00:00:00Z', podUid: 'old', configMapHash: 'before' }
    const configChange = (observations: Observation[]) => {
      const index = new SnapshotIndex({ ...snapshot, observations })
      const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
      return configEntries(index, node, snapshot.collectedAt).find((e) => e.kind === 'configmap-hash')
    }
    // The last observation kept no fingerprints: nothing to compare them with, and the data is not read for them.
    expect(configChange([earlier])?.text).not.toContain('changed:')
    expect(listed).toBe(0)
    expect(configChange([{ ...earlier, configKeys: { ...digests, [changed]: '00000000' } }])?.text).toContain(`; changed: ${changed}`)
    expect(listed).toBeGreaterThan(0)
  })

  it('a time in canonical form is itself; others are converted, invalid ones are undefined', () => {
    expect(isoTime('2026-11-22T10:00:00.000Z')).toBe('2026-11-22T10:00:00.000Z')
    expect(isoTime('2026-11-22T10:00:00Z')).toBe('2026-11-22T10:00:00.000Z')
    expect(isoTime('2026-11-22T12:00:00+02:00')).toBe('2026-11-22T10:00:00.000Z')
    expect(isoTime('2026-13-45T99:99:99.000Z')).toBeUndefined()
    expect(isoTime('not a time')).toBeUndefined()
  })
})
