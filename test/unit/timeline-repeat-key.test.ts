import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { collapse, normaliseForGrouping } from '../../src/timeline/collapse.js'
import { eventEntries, timelineObjects } from '../../src/timeline/events.js'
import { hashOfNormalised, isPlainPrefix, isPlainRepeat, isTemplateRepeat, numberTemplate, plainHash, prefixState } from '../../src/timeline/repeat-key.js'
import { isoTime } from '../../src/timeline/time.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../../src/snapshot/events.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { KubeObject } from '../../src/snapshot/types.js'
import type { RawEntry } from '../../src/timeline/types.js'
import { useBundles } from '../helpers/bundles.js'
import { addNodeEvents } from '../helpers/node-events.js'

const load = useBundles('healthy')

// Pieces that reach every case of normaliseForGrouping: numbers (with dots), the hex run, "0x", spaces, "-" (uuids and
// times), what lies beyond ASCII, and the replacement texts themselves written out.
const piece = fc.constantFrom(
  '1',
  '42',
  '1.5',
  '.',
  '7.',
  '1234567',
  '12345678',
  'abc',
  'deadbee',
  'f',
  'g',
  'x',
  '0x',
  '0',
  'X',
  ' ',
  '  ',
  '\t',
  '\u00a0',
  '\u00e9',
  '-',
  '2026-11-22T10:00:00Z',
  '0f3c9b1e-1111-4222-8333-944455556666',
  '<n>',
  '<hex>',
  ':',
  '(peer',
  ')',
)
const message = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''))
const reason = fc.constantFrom('HeightUpdated', 'BackOff', 'Back2Off', 'Re-try', ' Lead', '', 'cafebabe', 'a  b')

describe('repeats found by a hash of their normalised text, built for no Event (repeat-key.ts)', () => {
  it('a plain message hashes as its normalised text does, and is told a repeat of exactly the texts it normalises to (property)', () => {
    fc.assert(
      fc.property(reason, message, message, (why, text, other) => {
        const prefix = `${why}: `
        if (!isPlainPrefix(prefix)) return
        // A plain prefix is its own normal form whatever follows it.
        expect(normaliseForGrouping(`${prefix}a`)).toBe(`${prefix}a`)
        const normalised = normaliseForGrouping(prefix + text)
        const hash = plainHash(text, prefixState(prefix))
        // Compared with a normalised text (its own, another message's), as the grouping compares it: only a plain
        // message is told the same, and then exactly as its normalised text is the same.
        const expected = normaliseForGrouping(prefix + other)
        expect(isPlainRepeat(text, expected, prefix.length)).toBe(hash !== -1 && expected === normalised)
        expect(isPlainRepeat(text, normalised, prefix.length)).toBe(hash !== -1)
        if (hash !== -1) expect(hash).toBe(hashOfNormalised(normalised))
      }),
      { numRuns: 20_000, seed: 44 },
    )
  })

  it('a recent group\'s template tells a repeat as the loop over the whole message does, where the message writes no "<n>" of its own (property)', () => {
    fc.assert(
      fc.property(reason, message, message, (why, text, other) => {
        const prefix = `${why}: `
        if (!isPlainPrefix(prefix) || plainHash(text, prefixState(prefix)) === -1) return
        const normalised = normaliseForGrouping(prefix + text)
        const parts = numberTemplate(normalised, prefix.length)
        if (!parts) return
        const repeat = isPlainRepeat(other, normalised, prefix.length)
        // Never a repeat the loop would not tell; and every one it tells, but for a message's own "<n>" text.
        if (isTemplateRepeat(other, parts)) expect(repeat).toBe(true)
        if (repeat && !other.includes('<n>')) expect(isTemplateRepeat(other, parts)).toBe(true)
        if (!text.includes('<n>')) expect(isTemplateRepeat(text, parts)).toBe(true)
      }),
      { numRuns: 20_000, seed: 44 },
    )
    // A number next to a hex letter or an x could join a hex run or a "0x": no template; nor for two numbers that touch.
    for (const text of ['at cafe12', '12abc', 'a 0x', 'id 12 <n>3']) expect(numberTemplate(normaliseForGrouping(`Why: ${text}`), 5)).toBeUndefined()
    expect(numberTemplate('Why: height <n> reached at attempt <n> (peer <n>)', 5)).toEqual(['height ', ' reached at attempt ', ' (peer ', ')'])
  })

  it('what a noisy node says is plain; what takes a pass beyond numbers is normalised as text', () => {
    const state = prefixState('HeightUpdated: ')
    expect(plainHash('height 1000007 reached at attempt 7 (peer 12)', state)).not.toBe(-1)
    // Eight hex digits in a row (a height of eight digits too), 0x, two spaces, a tab, a "-", beyond ASCII, a space at an end.
    for (const text of ['height 10000007', 'at cafe1234', 'addr 0x12', 'a  b', 'a\tb', 'a-b', 'caf\u00e9', ' a', 'a ', ''])
      expect(plainHash(text, state)).toBe(-1)
    expect(['HeightUpdated: ', ': ', 'Back2Off: ', 'Re-try: ', ' Lead: ', 'cafebabe: ', 'BackOff'].map(isPlainPrefix)).toEqual([
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ])
  })

  // 5 s on a quiet machine; the run's 30 s default is too little for it on two cores shared with the end-to-end suite.
  it("a node's Events grouped as they are read are what one entry per Event, collapsed, gives (property)", { timeout: 120_000 }, () => {
    const snapshot = load('healthy')
    const event = fc.record({
      about: fc.constantFrom('ChainNode', 'Pod'),
      reason,
      message,
      second: fc.integer({ min: 0, max: 10_000 }),
      lasted: fc.constantFrom(0, 0, 30, 600),
      form: fc.constantFrom('Z', '.000Z', '+00:00'),
      count: fc.integer({ min: 1, max: 3 }),
      warning: fc.boolean(),
    })
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const copy = structuredClone(snapshot)
        const about = (kind: string) => copy.objects.find((o) => o.kind === kind && o.metadata.name === 'fullnode-0')!
        const time = (second: number, form: string) => new Date(Date.UTC(2026, 10, 22) + second * 1000).toISOString().replace('.000Z', form)
        // Each its own last time: which repeat is the newest is then one answer, whatever order the two read them in.
        events.forEach((e, i) => {
          const obj = about(e.about)
          copy.objects.push({
            apiVersion: 'v1',
            kind: 'Event',
            metadata: { name: `e${i}`, namespace: 'sc-healthy', creationTimestamp: time(e.second, 'Z') },
            involvedObject: { kind: obj.kind, name: obj.metadata.name, namespace: 'sc-healthy', uid: obj.metadata.uid },
            type: e.warning ? 'Warning' : 'Normal',
            reason: e.reason,
            message: e.message,
            firstTimestamp: time(e.second, e.form),
            lastTimestamp: time(e.second + e.lasted + i / 100, e.form),
            count: e.count,
          } as KubeObject)
        })
        const index = new SnapshotIndex(copy)
        const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
        expect(collapse(eventEntries(index, node))).toEqual(collapse(oneEntryPerEvent(index, node)))
      }),
      { numRuns: 300, seed: 44 },
    )
  })

  it('builds a normalised text per kind of message, not per Event: 20,000 Events, a few dozen replacements', () => {
    const { groups, calls } = groupedCounting('replace')
    // Seven kinds of message about the ChainNode and about its Pod, beside the bundle's own Events.
    expect(groups.filter((e) => (e.count ?? 1) > 1).length).toBeLessThan(20)
    // Before: normaliseForGrouping per Event, whose number pass is a replace (20,028); now a few per kind of message.
    expect(calls).toBeLessThan(100)
  })

  it("reads a repeat's numbers, not its every character: 20,000 Events, a few character reads each", () => {
    const { calls } = groupedCounting('charCodeAt')
    // "height 1000007 reached at attempt 7 (peer 12)": before, each of its characters and the group's text's were read
    // (143 reads an Event); now its three numbers' digits and the character after each (15).
    expect(calls / EVENTS).toBeLessThan(25)
  })

  it('reads an Event about two of the objects once, and objects that cannot share one need no set of those seen', () => {
    const snapshot = addNodeEvents(load('healthy'), 'sc-healthy', 'fullnode-0', 10)
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
    const objects = timelineObjects(index, node)
    expect(index.mayShareEvents(objects)).toBe(false)
    expect(index.mayShareEvents([...objects, objects[0]])).toBe(true)
    // A Pod with no uid takes an Event by name; an Event with the ChainNode's uid and the Pod's name is about both.
    const pod = snapshot.objects.find((o) => o.kind === 'Pod' && o.metadata.name === 'fullnode-0')!
    delete pod.metadata.uid
    snapshot.objects.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'both', namespace: 'sc-healthy', creationTimestamp: '2026-11-22T10:00:00Z' },
      involvedObject: { kind: 'Pod', name: 'fullnode-0', namespace: 'sc-healthy', uid: node.metadata.uid },
      reason: 'Both',
      message: 'about the node and its Pod',
      lastTimestamp: '2026-11-22T10:00:00Z',
    } as KubeObject)
    const shared = new SnapshotIndex(snapshot)
    const sharedNode = shared.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
    expect(shared.mayShareEvents(timelineObjects(shared, sharedNode))).toBe(true)
    expect(
      eventEntries(shared, sharedNode)
        .filter((e) => e.kind === 'Event/Both')
        .map((e) => e.count),
    ).toEqual([1])
  })
})

const EVENTS = 20_000

/**
 * eventEntries over EVENTS Events about fullnode-0, counting the calls of one String method while it groups them. The
 * Events are looked up (and sorted) before counting, as the rules look them up first: that cost is doctor's as well.
 */
function groupedCounting(method: 'replace' | 'charCodeAt'): { groups: RawEntry[]; calls: number } {
  const index = new SnapshotIndex(addNodeEvents(load('healthy'), 'sc-healthy', 'fullnode-0', EVENTS))
  const node = index.chainNodes().find((n) => n.metadata.name === 'fullnode-0')!
  for (const obj of timelineObjects(index, node)) index.eventsFor(obj)
  const spy = vi.spyOn(String.prototype, method)
  try {
    const groups = eventEntries(index, node)
    return { groups, calls: spy.mock.calls.length }
  } finally {
    spy.mockRestore()
  }
}

/** What eventEntries stands for: one entry per Event (each once), for collapse to merge. */
function oneEntryPerEvent(index: SnapshotIndex, node: Parameters<typeof eventEntries>[1]): RawEntry[] {
  const seen = new Set<KubeObject>()
  return timelineObjects(index, node).flatMap((obj) =>
    index
      .eventsFor(obj)
      .filter((event) => !seen.has(event) && seen.add(event))
      .map((event): RawEntry => {
        const at = isoTime(eventFirstTime(event)) ?? isoTime(eventTime(event))!
        return {
          at,
          last: isoTime(eventTime(event)) ?? at,
          count: eventCount(event),
          source: 'event',
          kind: `Event/${event.reason ?? ''}`,
          subject: { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name },
          level: event.type === 'Warning' ? 'warning' : 'normal',
          text: `${event.reason ?? ''}: ${eventText(event).trim()}`,
        }
      }),
  )
}
