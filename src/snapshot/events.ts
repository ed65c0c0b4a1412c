import type { KubeObject } from './types.js'
import type { KubeEvent } from './kinds.js'

/** When an Event last happened, null-safe across core/v1 and events.k8s.io/v1 shapes. */
export function eventTime(event: KubeEvent): string {
  return (
    event.series?.lastObservedTime ??
    event.lastTimestamp ??
    event.eventTime ??
    event.firstTimestamp ??
    event.metadata.creationTimestamp ??
    '1970-01-01T00:00:00Z'
  )
}

export function eventFirstTime(event: KubeEvent): string {
  return event.firstTimestamp ?? event.eventTime ?? event.metadata.creationTimestamp ?? eventTime(event)
}

/** What an Event says: `message` in core/v1, `note` in events.k8s.io/v1. */
export function eventText(event: KubeEvent): string {
  return event.message ?? event.note ?? ''
}

export function eventCount(event: KubeEvent): number {
  return Math.max(event.count ?? 0, event.series?.count ?? 0, 1)
}

/** Sorted newest last, the order kubectl's `--sort-by=.lastTimestamp` intends but with nulls handled. */
export function sortEvents(events: KubeEvent[]): KubeEvent[] {
  return sortEventsTimed(events).events
}

/** sortEvents, with each Event's time as parsed for the sort (Date.parse of eventTime; NaN when unreadable). */
export function sortEventsTimed(events: KubeEvent[]): { events: KubeEvent[]; times: number[] } {
  // Each time parsed once, not once per comparison: a bundle can hold 300,000 events.
  const timed = events.map((event) => ({ event, at: Date.parse(eventTime(event)) }))
  timed.sort((a, b) => a.at - b.at || (a.event.metadata.name < b.event.metadata.name ? -1 : a.event.metadata.name > b.event.metadata.name ? 1 : 0))
  return { events: timed.map(({ event }) => event), times: timed.map(({ at }) => at) }
}

/** What matchingEvents needs of a SnapshotIndex; named structurally so index.ts can import the Event helpers here without a cycle. */
interface EventLookup {
  eventsFor(obj: KubeObject | undefined): KubeEvent[]
}

/** Events about the object whose reason or message matches. */
export function matchingEvents(index: EventLookup, obj: KubeObject | undefined, test: (event: KubeEvent) => boolean): KubeEvent[] {
  return index.eventsFor(obj).filter(test)
}

export const byReason =
  (...reasons: string[]) =>
  (event: KubeEvent) =>
    event.reason !== undefined && reasons.includes(event.reason)
