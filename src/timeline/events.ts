import { relatedObjects } from '../analysis/related-events.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { signerOf } from '../analysis/signer-context.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { MAX_ENTRY_CHARS, normaliseForGrouping } from './collapse.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** The objects whose Events tell a node's story: what `events` shows for it, plus its remote signer's objects. */
export function timelineObjects(index: SnapshotIndex, node: ChainNode): KubeObject[] {
  const signer = signerOf(index, node, index.podOf(node))
  const signerObjects = signer ? [signer.discoveryService, signer.statefulSet, ...signer.pods] : []
  return [...relatedObjects(index, node), ...signerObjects].filter((obj): obj is KubeObject => Boolean(obj))
}

/** A group of repeats as it is read: the times compared as numbers, the newest repeat's wording kept by reference. */
interface EventGroup {
  subject: RawEntry['subject']
  kind: string
  count: number
  /** The earliest start and its text; the latest end and its text (the forms isoTime normalises once per group). */
  first: number
  at: string
  last: number
  lastText: string
  level: RawEntry['level']
  text: string
  cutChars?: number
}

/**
 * Each Event (core/v1 or events.k8s.io/v1) as one entry, already aggregated by the server's count and series. Repeats
 * (collapse.ts groupKey) are merged here as they are read, as collapse would merge them: a node with 200,000 Events
 * makes one entry per kind of message, not 200,000 entries to sort and merge. An Event costs its normalised text
 * and no time parse (its sort parsed its time; a first time apart from it is parsed); no entry object is made for it.
 */
export function eventEntries(index: SnapshotIndex, node: ChainNode): RawEntry[] {
  const seen = new Set<KubeObject>()
  // groupKey's parts as nested maps (subject, then reason, then the normalised text): no key text is built per Event.
  const groups = new Map<string, Map<string, Map<string, EventGroup>>>()
  // In the order first read, as one map of whole keys would list them.
  const order: EventGroup[] = []
  for (const obj of timelineObjects(index, node)) {
    // One subject for all of an object's Events: a node can have 200,000 of them.
    const subject = { kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name }
    const subjectKey = `${subject.kind}/${subject.name}`
    let bySubject = groups.get(subjectKey)
    if (!bySubject) groups.set(subjectKey, (bySubject = new Map()))
    const events = index.eventsFor(obj)
    // Parsed by the sort of the object's Events, which the rules made before.
    const times = index.eventTimesFor(obj)
    for (let i = 0; i < events.length; i++) {
      const event = events[i]
      if (seen.has(event)) continue
      seen.add(event)
      const lastText = eventTime(event)
      const firstText = eventFirstTime(event)
      const last = times[i]
      const first = firstText === lastText ? last : Date.parse(firstText)
      // An unreadable first time is the last one; an unreadable last time is the first one (isoTime as before).
      const at = Number.isNaN(first) ? last : first
      const until = Number.isNaN(last) ? at : last
      const reason = event.reason ?? ''
      // Cut as collapse cuts it, before it is grouped: a message of megabytes is not normalised whole.
      const whole = `${reason}: ${eventText(event).trim()}`
      const text = whole.length <= MAX_ENTRY_CHARS ? whole : whole.slice(0, MAX_ENTRY_CHARS)
      const cutChars = whole.length <= MAX_ENTRY_CHARS ? undefined : whole.length - MAX_ENTRY_CHARS
      let byReason = bySubject.get(reason)
      if (!byReason) bySubject.set(reason, (byReason = new Map()))
      const normalised = normaliseForGrouping(text)
      const count = eventCount(event)
      const level = event.type === 'Warning' ? 'warning' : 'normal'
      const group = byReason.get(normalised)
      if (!group) {
        const startText = firstText === lastText ? lastText : Number.isNaN(first) ? lastText : firstText
        const endText = Number.isNaN(last) ? firstText : lastText
        const created: EventGroup = { subject, kind: `Event/${reason}`, count, first: at, at: startText, last: until, lastText: endText, level, text, cutChars }
        byReason.set(normalised, created)
        order.push(created)
        continue
      }
      group.count += count
      if (at < group.first) {
        group.first = at
        group.at = firstText === lastText ? lastText : Number.isNaN(first) ? lastText : firstText
      }
      // The newest repeat's wording, as collapse keeps it.
      if (until >= group.last) {
        group.last = until
        group.lastText = Number.isNaN(last) ? firstText : lastText
        group.text = text
        group.cutChars = cutChars
        group.level = level
      }
    }
  }
  // Times normalised once per group, not once per Event.
  return order.map((group) => {
    const at = isoTime(group.at) ?? isoTime(group.lastText)!
    const entry: RawEntry = {
      at,
      last: isoTime(group.lastText) ?? at,
      count: group.count,
      source: 'event',
      kind: group.kind,
      subject: group.subject,
      level: group.level,
      text: group.text,
    }
    return group.cutChars === undefined ? entry : { ...entry, cutChars: group.cutChars }
  })
}
