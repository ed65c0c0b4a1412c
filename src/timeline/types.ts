import type { ObjectRef } from '../snapshot/types.js'

/** Where an entry was read from; renderers print it as the SOURCE column. */
export type TimelineSource = 'event' | 'pod' | 'config' | 'chainnode' | 'storage' | 'operator' | 'lease' | 'log' | 'finding'

/** How much an entry matters: findings carry their rule's severity, Events and log lines their level. */
export type TimelineLevel = 'error' | 'warning' | 'info' | 'normal'

/**
 * One thing that happened to a node, as data. Repeats are collapsed into one entry: `first` is when
 * it began (and where it sorts), `last` when it was last seen, `count` how often.
 */
export interface TimelineEntry {
  first: string
  last: string
  count: number
  source: TimelineSource
  /** What sort of happening, e.g. "Event/BackOff", "container-restart", "config-hash", "rule/image-pull". */
  kind: string
  subject: ObjectRef
  level: TimelineLevel
  text: string
  /** Characters cut from the end of `text` (an Event message or log line of megabytes): renderers say how many. */
  cutChars?: number
}

export interface TimelineWindow {
  since: string
  until: string
}

export interface NodeTimeline {
  node: ObjectRef
  /** "Now" of the timeline: the collection time of the snapshot (the bundle's, offline). */
  now: string
  window: TimelineWindow
  /** Entries inside the window, oldest first. */
  entries: TimelineEntry[]
  /** Entries of the whole snapshot left out by the window, so a reader knows to widen it. */
  outsideWindow: number
}

/** A single happening before collapsing: one Event, one log line, one status transition. */
export type RawEntry = Omit<TimelineEntry, 'first' | 'last' | 'count'> & { at: string; count?: number; last?: string }

/** The timelines of one cluster's (or one bundle's) nodes. */
export interface ClusterTimelines {
  context: string
  server: string
  bundle?: string
  collectedAt: string
  nodes: NodeTimeline[]
  incomplete: boolean
}
