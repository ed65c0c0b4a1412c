import { describe, expect, it } from 'vitest'
import { eventAge } from '../../src/render/events.js'
import { eventTime, sortEvents } from '../../src/snapshot/events.js'
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
