import { relatedObjects } from '../analysis/related-events.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { signerOf } from '../analysis/signer-context.js'
import type { KubeObject } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { MAX_ENTRY_CHARS, normaliseForGrouping } from './collapse.js'
import { eventCount, eventFirstTime, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode, KubeEvent } from '../snapshot/kinds.js'
import { hashOfNormalised, isPlainPrefix, isPlainRepeat, isTemplateRepeat, numberTemplate, plainHash, prefixState } from './repeat-key.js'

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
  /** numberTemplate of the normalised text once the group is a reason's recent one (null: it has none). */
  template: string[] | null | undefined
}

/** An object's Events of one reason, grouped: by normalised text, and by its hash (repeat-key.ts) for plain messages. */
interface ReasonGroups {
  reason: string
  prefix: string
  /** prefixState(prefix) where the prefix is plain (isPlainPrefix), else undefined: every message normalised as text. */
  state: number | undefined
  byText: Map<string, EventGroup>
  /** null: more groups share the hash than MAX_SAME_HASH (a stranger's messages made to collide): found by text. */
  byHash: Map<number, EventGroup[] | null>
  /** The group of the last plain message: a node's next Event of a reason is most often its repeat, checked first. */
  recent: EventGroup | undefined
}

/** Groups under one hash looked at per Event, at most: beyond it, a message is normalised as text. */
const MAX_SAME_HASH = 4

function reasonGroups(reason: string): ReasonGroups {
  const prefix = `${reason}: `
  return { reason, prefix, state: isPlainPrefix(prefix) ? prefixState(prefix) : undefined, byText: new Map(), byHash: new Map(), recent: undefined }
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

/** Where an object's Events are grouped: its subject, its groups by reason, and every group in the order first read. */
interface Grouping {
  subject: RawEntry['subject']
  byReason: Map<string, ReasonGroups>
  order: EventGroup[]
}

/**
 * One object's Events (sorted, with their parsed last times) added to its groups. The loop is its own function, and
 * what most Events take (a repeat of their reason's recent group) its only inline work: a node's 200,000 Events
 * are read by code compiled once for this loop alone, not again for each object or each rarely taken branch.
 */
function groupEvents(events: readonly KubeEvent[], times: readonly number[], seen: Set<KubeEvent> | undefined, grouping: Grouping): void {
  for (let i = 0; i < events.length; i++) {
    const event = events[i]
    if (seen) {
      if (seen.has(event)) continue
      seen.add(event)
    }
    const reason = event.reason ?? ''
    const byReason = grouping.byReason.get(reason) ?? newReason(grouping.byReason, reason)
    const message = eventText(event).trim()
    const recent = byReason.recent
    // Cut as collapse cuts it, before it is grouped: a message of megabytes is not normalised whole.
    if (recent !== undefined && byReason.prefix.length + message.length <= MAX_ENTRY_CHARS && isRecentRepeat(message, recent, byReason.prefix.length))
      addRepeat(recent, event, times[i], message)
    else addEvent(grouping, byReason, event, times[i], message)
  }
}

function newReason(byReason: Map<string, ReasonGroups>, reason: string): ReasonGroups {
  const groups = reasonGroups(reason)
  byReason.set(reason, groups)
  return groups
}

/** An Event that is not a repeat of its reason's recent group: found by its hash or its normalised text, or a new group. */
function addEvent(grouping: Grouping, byReason: ReasonGroups, event: KubeEvent, last: number, message: string): void {
  const plain = byReason.state !== undefined && byReason.prefix.length + message.length <= MAX_ENTRY_CHARS
  const hash = plain ? plainHash(message, byReason.state!) : -1
  let group = hash === -1 ? null : plainGroup(byReason, message, hash)
  if (group) byReason.recent = group
  let normalised: string | undefined
  if (group === null) group = byReason.byText.get((normalised = normaliseForGrouping(entryText(byReason.reason, message).text)))
  if (group) {
    addRepeat(group, event, last, message)
    return
  }
  const created = newGroup(
    grouping.subject,
    byReason.reason,
    normalised ?? normaliseForGrouping(entryText(byReason.reason, message).text),
    event,
    last,
    message,
  )
  addGroup(byReason, created)
  if (hash !== -1) byReason.recent = created
  grouping.order.push(created)
}

/** A group of one Event, `last` its parsed last time: an unreadable first time is the last one, and the other way round. */
function newGroup(subject: RawEntry['subject'], reason: string, normalised: string, event: KubeEvent, last: number, message: string): EventGroup {
  const lastText = eventTime(event)
  const firstText = eventFirstTime(event)
  const first = firstText === lastText ? last : Date.parse(firstText)
  const start = Number.isNaN(first) ? last : first
  return {
    subject,
    reason,
    normalised,
    count: eventCount(event),
    first: start,
    at: Number.isNaN(first) ? lastText : firstText,
    last: Number.isNaN(last) ? start : last,
    lastText: Number.isNaN(last) ? firstText : lastText,
    level: event.type === 'Warning' ? 'warning' : 'normal',
    message,
    template: undefined,
  }
}

/** A repeat added to its group: its count, an earlier start, and the newest repeat's wording (as collapse keeps it). */
function addRepeat(group: EventGroup, event: KubeEvent, last: number, message: string): void {
  const lastText = eventTime(event)
  const firstText = eventFirstTime(event)
  // Parsed only where it differs from the last time, which the sort parsed.
  const first = firstText === lastText ? last : Date.parse(firstText)
  const start = Number.isNaN(first) ? last : first
  const until = Number.isNaN(last) ? start : last
  group.count += eventCount(event)
  if (start < group.first) {
    group.first = start
    group.at = Number.isNaN(first) ? lastText : firstText
  }
  if (until >= group.last) {
    group.last = until
    group.lastText = Number.isNaN(last) ? firstText : lastText
    group.message = message
    group.level = event.type === 'Warning' ? 'warning' : 'normal'
  }
}

/** Whether a plain message repeats its reason's recent group: by the group's template where it has one (repeat-key.ts). */
function isRecentRepeat(message: string, recent: EventGroup, at: number): boolean {
  if (recent.template === undefined) recent.template = numberTemplate(recent.normalised, at) ?? null
  return recent.template ? isTemplateRepeat(message, recent.template) : isPlainRepeat(message, recent.normalised, at)
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
    // The times were parsed by the sort of the object's Events, which the rules made before. An object with none is
    // not looked at: its empty lists are of another kind than a list of Events, and the loop would be compiled again.
    if (events.length > 0) groupEvents(events, index.eventTimesFor(obj), seen, { subject, byReason: bySubject, order })
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
