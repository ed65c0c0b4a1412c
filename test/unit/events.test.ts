import { describe, expect, it } from 'vitest'
import { eventAge } from '../../src/render/events.js'
import { eventTime, sortEvents } from '../../src/snapshot/events.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import type { Editable } from '../helpers/bundles.js'

const event = (name: string, fields: Record<string, unknown>): Editable => ({
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name, creationTimestamp: '2026-01-01T00:00:00Z' },
  ...fields,
})

describe('event ordering', () => {
  it('orders by series.lastObservedTime, then lastTimestamp, then eventTime, then creation time, newest last', () => {
    const events = [
      event('series', { series: { lastObservedTime: '2026-01-01T00:05:00Z', count: 4 }, lastTimestamp: null, eventTime: '2026-01-01T00:01:00Z' }),
      event('legacy', { lastTimestamp: '2026-01-01T00:03:00Z', eventTime: null }),
      event('new-api', { lastTimestamp: null, eventTime: '2026-01-01T00:04:00.123456Z' }),
      event('bare', { lastTimestamp: null, eventTime: null, metadata: undefined }),
      event('created-only', { lastTimestamp: null, eventTime: null }),
    ]
    events[3].metadata = { name: 'bare', creationTimestamp: '2026-01-01T00:02:00Z' }
    expect(sortEvents(events).map((e) => e.metadata.name)).toEqual(['created-only', 'bare', 'legacy', 'new-api', 'series'])
  })

  it('survives events with every timestamp null', () => {
    const nothing = event('nothing', { lastTimestamp: null, eventTime: null })
    nothing.metadata = { name: 'nothing' }
    expect(eventTime(nothing)).toBe('1970-01-01T00:00:00Z')
    expect(sortEvents([event('x', { lastTimestamp: '2026-01-01T00:00:00Z' }), nothing])[0].metadata.name).toBe('nothing')
  })

  it('aggregates repeats the way kubectl does', () => {
    const now = Date.parse('2026-01-01T01:00:00Z')
    expect(eventAge(event('once', { lastTimestamp: '2026-01-01T00:55:00Z', count: 1 }), now)).toBe('5m')
    expect(eventAge(event('repeat', { firstTimestamp: '2026-01-01T00:40:00Z', lastTimestamp: '2026-01-01T00:55:00Z', count: 3 }), now)).toBe('5m (x3 over 20m)')
    expect(eventAge(event('series', { eventTime: '2026-01-01T00:30:00Z', series: { count: 7, lastObservedTime: '2026-01-01T00:59:30Z' } }), now)).toBe(
      '30s (x7 over 30m)',
    )
  })
})

describe('the Events about an object (SnapshotIndex.eventsFor)', () => {
  const about = (name: string, involvedObject: Record<string, unknown>, at: string) =>
    event(name, { involvedObject: { kind: 'Pod', namespace: 'ns', ...involvedObject }, lastTimestamp: at })
  const pod = (name: string, uid?: string): Editable => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns', ...(uid ? { uid } : {}) } })
  const events = [
    about('by-uid', { name: 'node-0', uid: 'u1' }, '2026-01-01T00:04:00Z'),
    about('by-name-no-uid', { name: 'node-0' }, '2026-01-01T00:01:00Z'),
    about('earlier-pod-same-name', { name: 'node-0', uid: 'u0' }, '2026-01-01T00:02:00Z'),
    about('by-uid-renamed', { name: 'other', uid: 'u1' }, '2026-01-01T00:03:00Z'),
    about('another-pod', { name: 'node-1', uid: 'u2' }, '2026-01-01T00:00:00Z'),
  ]
  const index = (...objects: Editable[]) => new SnapshotIndex({ ...({} as Snapshot), objects: [...objects, ...events] as KubeObject[] })

  it('takes an object with a uid its uid, and by name only the Events that name no uid, each once, oldest first', () => {
    const node = pod('node-0', 'u1')
    expect(
      index(node)
        .eventsFor(node as KubeObject)
        .map((e) => e.metadata.name),
    ).toEqual(['by-name-no-uid', 'by-uid-renamed', 'by-uid'])
  })

  it('takes an object without a uid every Event that names it, whatever uid they carry', () => {
    const node = pod('node-0')
    expect(
      index(node)
        .eventsFor(node as KubeObject)
        .map((e) => e.metadata.name),
    ).toEqual(['by-name-no-uid', 'earlier-pod-same-name', 'by-uid'])
  })
})
