import { relatedObjects } from '../analysis/related-events.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { signerOf } from '../analysis/signer-context.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { MAX_ENTRY_CHARS, normaliseForGrouping } from './collapse.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode, KubeEvent } from '../snapshot/kinds.js'
import { hashOfNormalised, isPlainPrefix, isPlainRepeat, plainHash, prefixState } from './repeat-key.js'

/** The objects whose Events tell a node's story: what `events` shows for it, plus its remote signer's objects. */
export function timelineObjects(index: SnapshotIndex, node: ChainNode): KubeObject[] {
  const signer = signerOf(index, node, index.podOf(node))
  const signerObjects = signer ? [signer.discoveryService, signer.statefulSet, ...signer.pods] : []
  return [...relatedObjects(index, node), ...signerObjects].filter((obj): obj is KubeObject => Boolean(obj))
}

/** A group of repeats as it is read: the times compared as numbers, the newest repeat's wording kept by reference. */
interface EventGroup {
  subject: RawEntry['subject']
  reason: string
  /** normaliseForGrouping of the group's text: what makes an Event one of its repeats. */
  normalised: string
  count: number
  /** The earliest start and its text; the latest end and its text (the forms isoTime normalises once per group). */
  first: number
  at: string
  last: number
  lastText: string
  level: RawEntry['level']
  /** The newest repeat's message, trimmed: the entry's text is made of it once, at the end. */
  message: string
}

/** An object's Events of one reason, grouped: by normalised text, and by its hash (repeat-key.ts) for plain messages. */
interface ReasonGroups {
  prefix: string
  /** prefixState(prefix) where the prefix is plain (isPlainPrefix), else undefined: every message normalised as text. */
  state: number | undefined
  byText: Map<string, EventGroup>
  /** null: more groups share the hash than MAX_SAME_HASH (a stranger's messages made to collide): found by text. */
  byHash: Map<number, EventGroup[] | null>
  /** The group of the last plain message: a node's next Event of a reason is most often its repeat, checked first. */
  recent?: EventGroup
}

/** Groups under one hash looked at per Event, at most: beyond it, a message is normalised as text. */
const MAX_SAME_HASH = 4

function reasonGroups(reason: string): ReasonGroups {
  const prefix = `${reason}: `
  return { prefix, state: isPlainPrefix(prefix) ? prefixState(prefix) : undefined, byText: new Map(), byHash: new Map() }
}

/**
 * The group whose normalised text a plain message's is, found by the message's hash with no string built: the
 * group, or undefined when there is none, or null when its hash is shared too widely to tell (look it up by text).
 */
function plainGroup(groups: ReasonGroups, message: string, hash: number): EventGroup | undefined | null {
  const same = groups.byHash.get(hash)
  if (!same) return same
  for (const group of same) if (isPlainRepeat(message, group.normalised, groups.prefix.length)) return group
  return undefined
}

function addGroup(groups: ReasonGroups, group: EventGroup): void {
  groups.byText.set(group.normalised, group)
  // A reason whose prefix is not plain has every message normalised as text: nothing is found by hash.
  if (groups.state === undefined) return
  const hash = hashOfNormalised(group.normalised)
  const same = groups.byHash.get(hash)
  if (same === undefined) groups.byHash.set(hash, [group])
  else if (same && same.length < MAX_SAME_HASH) same.push(group)
  else groups.byHash.set(hash, null)
}

/** The entry's text: reason and message, cut as collapse cuts it. */
function entryText(reason: string, message: string): { text: string; cutChars?: number } {
  const whole = `${reason}: ${message}`
  return whole.length <= MAX_ENTRY_CHARS ? { text: whole } : { text: whole.slice(0, MAX_ENTRY_CHARS), cutChars: whole.length - MAX_ENTRY_CHARS }
}

/**
 * Each Event (core/v1 or events.k8s.io/v1) as one entry, already aggregated by the server's count and series. Repeats
 * (collapse.ts groupKey) are merged here as they are read, as collapse would merge them: a node with 200,000 Events
 * makes one entry per kind of message, not 200,000 entries to sort and merge. An Event whose message varies only in
 * its numbers costs one loop over it (repeat-key.ts), no string and no time parse (its sort parsed its time; a first
 * time apart from it is parsed); any other is normalised as text. No entry object is made for an Event.
 */
export function eventEntries(index: SnapshotIndex, node: ChainNode): RawEntry[] {
  const objects = timelineObjects(index, node)
  // An Event about two of the objects (by uid and by name) is counted once; objects that cannot share one need no set.
  const seen = index.mayShareEvents(objects) ? new Set<KubeEvent>() : undefined
  // groupKey's parts as nested maps (subject, then reason, then the normalised text): no key text is built per Event.
  const groups = new Map<string, Map<string, ReasonGroups>>()
  // In the order first read, as one map of whole keys would list them.
  const order: EventGroup[] = []
  for (const obj of objects) {
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
      if (seen) {
        if (seen.has(event)) continue
        seen.add(event)
      }
      const lastText = eventTime(event)
      const firstText = eventFirstTime(event)
      const last = times[i]
      const first = firstText === lastText ? last : Date.parse(firstText)
      // An unreadable first time is the last one; an unreadable last time is the first one (isoTime as before).
      const start = Number.isNaN(first) ? last : first
      const until = Number.isNaN(last) ? start : last
      const reason = event.reason ?? ''
      let byReason = bySubject.get(reason)
      if (!byReason) bySubject.set(reason, (byReason = reasonGroups(reason)))
      const message = eventText(event).trim()
      // Cut as collapse cuts it, before it is grouped: a message of megabytes is not normalised whole.
      const plain = byReason.state !== undefined && byReason.prefix.length + message.length <= MAX_ENTRY_CHARS
      // Most often a repeat of the reason's last plain group: one loop over the message says so; else its hash finds it.
      const recent = plain ? byReason.recent : undefined
      let group: EventGroup | undefined | null
      let hash = -1
      if (recent && isPlainRepeat(message, recent.normalised, byReason.prefix.length)) group = recent
      else {
        if (plain) hash = plainHash(message, byReason.state!)
        group = hash === -1 ? null : plainGroup(byReason, message, hash)
        if (group) byReason.recent = group
      }
      let normalised: string | undefined
      if (group === null) group = byReason.byText.get((normalised = normaliseForGrouping(entryText(reason, message).text)))
      const count = eventCount(event)
      const level = event.type === 'Warning' ? 'warning' : 'normal'
      if (!group) {
        const startText = firstText === lastText ? lastText : Number.isNaN(first) ? lastText : firstText
        const endText = Number.isNaN(last) ? firstText : lastText
        normalised ??= normaliseForGrouping(entryText(reason, message).text)
        const created: EventGroup = { subject, reason, normalised, count, first: start, at: startText, last: until, lastText: endText, level, message }
        addGroup(byReason, created)
        if (hash !== -1) byReason.recent = created
        order.push(created)
        continue
      }
      group.count += count
      if (start < group.first) {
        group.first = start
        group.at = firstText === lastText ? lastText : Number.isNaN(first) ? lastText : firstText
      }
      // The newest repeat's wording, as collapse keeps it.
      if (until >= group.last) {
        group.last = until
        group.lastText = Number.isNaN(last) ? firstText : lastText
        group.message = message
        group.level = level
      }
    }
  }
  // Times normalised once per group, not once per Event.
  return order.map((group) => {
    const at = isoTime(group.at) ?? isoTime(group.lastText)!
    const { text, cutChars } = entryText(group.reason, group.message)
    const entry: RawEntry = {
      at,
      last: isoTime(group.lastText) ?? at,
      count: group.count,
      source: 'event',
      kind: `Event/${group.reason}`,
      subject: group.subject,
      level: group.level,
      text,
    }
    return cutChars === undefined ? entry : { ...entry, cutChars }
  })
}
