import { relatedObjects } from '../analysis/related-events.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { signerOf } from '../analysis/signer-context.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** The objects whose Events tell a node's story: what `events` shows for it, plus its remote signer's objects. */
export function timelineObjects(index: SnapshotIndex, node: ChainNode): KubeObject[] {
  const signer = signerOf(index, node, index.podOf(node))
  const signerObjects = signer ? [signer.discoveryService, signer.statefulSet, ...signer.pods] : []
  return [...relatedObjects(index, node), ...signerObjects].filter((obj): obj is KubeObject => Boolean(obj))
}

/** Each Event (core/v1 or events.k8s.io/v1) as one entry, already aggregated by the server's count and series. */
export function eventEntries(index: SnapshotIndex, node: ChainNode): RawEntry[] {
  const seen = new Set<KubeObject>()
  const entries: RawEntry[] = []
  for (const obj of timelineObjects(index, node)) {
    // One subject for all of an object's Events: a node can have 200,000 of them.
    const subject = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name }
    for (const event of index.eventsFor(obj)) {
      if (seen.has(event)) continue
      seen.add(event)
      const at = isoTime(eventFirstTime(event)) ?? isoTime(eventTime(event))!
      entries.push({
        at,
        last: isoTime(eventTime(event)) ?? at,
        count: eventCount(event),
        source: 'event',
        kind: `Event/${event.reason ?? ''}`,
        subject,
        level: event.type === 'Warning' ? 'warning' : 'normal',
        text: `${event.reason ?? ''}: ${eventText(event).trim()}`,
      })
    }
  }
  return entries
}
