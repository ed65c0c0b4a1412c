import { relatedObjects } from '../analysis/related-events.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { signerOf } from '../analysis/signer-context.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { groupKey, MAX_ENTRY_CHARS } from './collapse.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** The objects whose Events tell a node's story: what `events` shows for it, plus its remote signer's objects. */
export function timelineObjects(index: SnapshotIndex, node: ChainNode): KubeObject[] {
  const signer = signerOf(index, node, index.podOf(node))
  const signerObjects = signer ? [signer.discoveryService, signer.statefulSet, ...signer.pods] : []
  return [...relatedObjects(index, node), ...signerObjects].filter((obj): obj is KubeObject => Boolean(obj))
}

/**
 * Each Event (core/v1 or events.k8s.io/v1) as one entry, already aggregated by the server's count and series. Repeats
 * (collapse.ts groupKey) are merged here as they are read, as collapse would merge them: a node with 200,000 Events
 * makes one entry per kind of message, not 200,000 entries to sort and merge.
 */
export function eventEntries(index: SnapshotIndex, node: ChainNode): RawEntry[] {
  const seen = new Set<KubeObject>()
  const groups = new Map<string, { entry: RawEntry; first: number; last: number }>()
  for (const obj of timelineObjects(index, node)) {
    // One subject for all of an object's Events: a node can have 200,000 of them.
    const subject = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name }
    for (const event of index.eventsFor(obj)) {
      if (seen.has(event)) continue
      seen.add(event)
      const lastText = eventTime(event)
      const firstText = eventFirstTime(event)
      const last = Date.parse(lastText)
      const first = firstText === lastText ? last : Date.parse(firstText)
      // An unreadable first time is the last one; an unreadable last time is the first one (isoTime as before).
      const at = Number.isNaN(first) ? last : first
      const until = Number.isNaN(last) ? at : last
      const entry: RawEntry = {
        at: firstText === lastText ? lastText : Number.isNaN(first) ? lastText : firstText,
        last: Number.isNaN(last) ? firstText : lastText,
        count: eventCount(event),
        source: 'event',
        kind: `Event/${event.reason ?? ''}`,
        subject,
        level: event.type === 'Warning' ? 'warning' : 'normal',
        ...withinLength(`${event.reason ?? ''}: ${eventText(event).trim()}`),
      }
      const key = groupKey(entry)
      const group = groups.get(key)
      if (!group) {
        groups.set(key, { entry, first: at, last: until })
        continue
      }
      group.entry.count = (group.entry.count ?? 1) + (entry.count ?? 1)
      if (at < group.first) {
        group.first = at
        group.entry.at = entry.at
      }
      // The newest repeat's wording, as collapse keeps it.
      if (until >= group.last) {
        group.last = until
        group.entry.last = entry.last
        group.entry.text = entry.text
        group.entry.cutChars = entry.cutChars
        group.entry.level = entry.level
      }
    }
  }
  // Times normalised once per group, not once per Event.
  return [...groups.values()].map(({ entry }) => {
    const at = isoTime(entry.at) ?? isoTime(entry.last)!
    return { ...entry, at, last: isoTime(entry.last) ?? at }
  })
}

/** An Event's text cut as collapse cuts it, before it is grouped: a message of megabytes is not normalised whole. */
function withinLength(text: string): { text: string; cutChars?: number } {
  return text.length <= MAX_ENTRY_CHARS ? { text } : { text: text.slice(0, MAX_ENTRY_CHARS), cutChars: text.length - MAX_ENTRY_CHARS }
}
