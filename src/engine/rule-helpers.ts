import { eventCount, eventTime, refOf, type SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject, LogRecord, ObjectRef } from '../snapshot/types.js'
import type { Evidence } from './define-rule.js'
import { isRoutineLine } from '../snapshot/log-format.js'

export interface LogLine {
  at?: string
  text: string
}

/** Logs are collected with timestamps=true: split the RFC 3339 prefix off each line. */
export function logLines(index: SnapshotIndex, pod: KubeObject | undefined, container: string, previous = false): LogLine[] {
  if (!pod) return []
  const record = index.logsFor(pod.metadata.namespace, pod.metadata.name, container, previous)
  if (!record?.text) return []
  // Many rules grep the same operator log: split it once.
  let lines = splitLogs.get(record)
  if (!lines) {
    lines = record.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const match = /^(\d{4}-\d\d-\d\dT\S+Z)\s(.*)$/.exec(line)
        return match ? { at: match[1], text: match[2] } : { text: line }
      })
    splitLogs.set(record, lines)
  }
  return lines
}
const splitLogs = new WeakMap<LogRecord, LogLine[]>()

/**
 * Matching log lines, previous run and current (or the current run only), newest last, at most `limit` of them.
 * Only error and warning lines (and lines that name no level) count as evidence of trouble; a rule that reads
 * routine lines on purpose (a height, a gate waiting, a lease changing hands) says so with `anyLevel`.
 */
export function grepLogs(
  index: SnapshotIndex,
  pod: KubeObject | undefined,
  container: string | undefined,
  pattern: RegExp,
  limit = 5,
  { currentRunOnly = false, anyLevel = false }: { currentRunOnly?: boolean; anyLevel?: boolean } = {},
): Evidence[] {
  if (!pod || !container) return []
  const hits: Evidence[] = []
  for (const previous of currentRunOnly ? [false] : [true, false]) {
    const record = index.logsFor(pod.metadata.namespace, pod.metadata.name, container, previous)
    if (record?.text) for (const hit of matchingLines(index, pod, record, pattern)) if (anyLevel || !isRoutineLine(hit.text)) hits.push(hit)
  }
  return hits.slice(-limit)
}

/**
 * Every rule of every node of a fleet greps the same operator log with the same few patterns: each
 * pattern scans a log once. The key is the pattern's text, not its object, so an inline literal (a new
 * object per call) still hits.
 */
function matchingLines(index: SnapshotIndex, pod: KubeObject, record: LogRecord, pattern: RegExp): Evidence[] {
  let byPattern = grepped.get(record)
  if (!byPattern) grepped.set(record, (byPattern = new Map()))
  const key = `${pattern.flags}/${pattern.source}`
  let hits = byPattern.get(key)
  if (!hits) {
    // A global or sticky pattern keeps lastIndex between test() calls and would skip lines.
    const test = pattern.global || pattern.sticky ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern
    const source = `log of ${pod.metadata.name}/${record.container}${record.previous ? ' (previous)' : ''}`
    hits = logLines(index, pod, record.container, record.previous)
      .filter((line) => test.test(line.text))
      .map((line) => ({ kind: 'log' as const, source, text: line.text, at: line.at }))
    byPattern.set(key, hits)
  }
  return hits
}
const grepped = new WeakMap<LogRecord, Map<string, Evidence[]>>()

export function eventEvidence(event: KubeObject): Evidence {
  const involved = event.involvedObject ?? event.regarding ?? {}
  const count = eventCount(event)
  return {
    kind: 'event',
    source: `Event ${event.type ?? 'Normal'} ${event.reason ?? ''} on ${involved.kind}/${involved.name}`,
    text: `${event.message ?? event.note ?? ''}${count > 1 ? ` (x${count})` : ''}`,
    at: eventTime(event),
  }
}

/** Events about the object whose reason or message matches. */
export function matchingEvents(index: SnapshotIndex, obj: KubeObject | undefined, test: (event: KubeObject) => boolean): KubeObject[] {
  return index.eventsFor(obj).filter(test)
}

export const byReason =
  (...reasons: string[]) =>
  (event: KubeObject) =>
    reasons.includes(event.reason)

export function field(obj: KubeObject | ObjectRef, path: string, value: unknown): Evidence {
  const ref = 'metadata' in obj ? refOf(obj as KubeObject) : (obj as ObjectRef)
  return { kind: 'field', source: `${ref.kind}/${ref.name}`, text: `${path} = ${value === undefined ? '<none>' : JSON.stringify(value)}` }
}

export function missing(source: string, text: string): Evidence {
  return { kind: 'missing', source, text }
}

/** The rendered config.toml of a node, as the operator wrote it into ConfigMap <node>. */
export function configFile(index: SnapshotIndex, node: KubeObject, file: string): string | undefined {
  return index.configMapOf(node)?.data?.[file]
}

/** A top-level or [section] string value of a TOML file; enough for the handful of keys rules read. */
export function tomlString(toml: string | undefined, section: string, key: string): string | undefined {
  if (toml === undefined) return undefined
  let current = ''
  for (const raw of toml.split('\n')) {
    const line = raw.trim()
    const header = /^\[([^\]]+)\]/.exec(line)
    if (header) current = header[1].trim()
    else if (current === section) {
      const match = new RegExp(`^${key.replace(/[-_]/g, '[-_]')}\\s*=\\s*"(.*)"`).exec(line)
      if (match) return match[1]
    }
  }
  return undefined
}

export const ageMs = (now: number, time: string | undefined): number => (time ? now - Date.parse(time) : Number.POSITIVE_INFINITY)
