import type { KubeObject } from './types.js'

/** What matchingEvents needs of a SnapshotIndex; named structurally so index.ts can import the Event helpers here without a cycle. */
interface EventLookup {
  eventsFor(obj: KubeObject | undefined): KubeObject[]
}

/** Events about the object whose reason or message matches. */
export function matchingEvents(index: EventLookup, obj: KubeObject | undefined, test: (event: KubeObject) => boolean): KubeObject[] {
  return index.eventsFor(obj).filter(test)
}

export const byReason =
  (...reasons: string[]) =>
  (event: KubeObject) =>
    reasons.includes(event.reason)
