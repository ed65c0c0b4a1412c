import type { SnapshotIndex } from './index.js'
import type { LogRecord } from './types.js'
import type { Pod } from './kinds.js'

export interface LogLine {
  at?: string
  text: string
}

/** Logs are collected with timestamps=true: split the RFC 3339 prefix off each line. */
export function logLines(index: SnapshotIndex, pod: Pod | undefined, container: string, previous = false): LogLine[] {
  if (!pod) return []
  const record = index.logsFor(pod.metadata.namespace, pod.metadata.name, container, previous)
  if (!record?.text) return []
  // Many rules grep the same operator log: split it once.
  let lines = splitLogs.get(record)
  if (!lines) {
    lines = linesOf(record.text)
    splitLogs.set(record, lines)
  }
  return lines
}
const splitLogs = new WeakMap<LogRecord, LogLine[]>()

/** A log read with timestamps=true, one line each, the RFC 3339 prefix split off. */
export function linesOf(text: string): LogLine[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const match = /^(\d{4}-\d\d-\d\dT\S+Z)\s(.*)$/.exec(line)
      return match ? { at: match[1], text: match[2] } : { text: line }
    })
}
