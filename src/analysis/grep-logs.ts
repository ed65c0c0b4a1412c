import type { Evidence } from '../engine/define-rule.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { logLines } from '../snapshot/log-lines.js'
import { isRoutineLine } from '../snapshot/log-format.js'
import type { LogRecord } from '../snapshot/types.js'
import type { Pod } from '../snapshot/kinds.js'

/**
 * Matching log lines, previous run and current (or the current run only), newest last, at most `limit` of them.
 * Only error and warning lines (and lines that name no level) count as evidence of trouble; a rule that reads
 * routine lines on purpose (a height, a gate waiting, a lease changing hands) says so with `anyLevel`.
 */
export function grepLogs(
  index: SnapshotIndex,
  pod: Pod | undefined,
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
function matchingLines(index: SnapshotIndex, pod: Pod, record: LogRecord, pattern: RegExp): Evidence[] {
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
