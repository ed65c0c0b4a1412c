import type { ProfileKindName } from '../pprof/capture.js'
import type { GoroutineChange, GoroutineDump } from '../pprof/goroutines.js'
import { renderGoroutineGrowth } from './goroutines.js'
import { renderTopReport, type TopReport } from './pprof-top.js'

/** Two captures `intervalMs` apart and what changed between them (app/pprof-growth.ts). */
export interface GrowthResult {
  kind: ProfileKindName
  intervalMs: number
  /** The first capture's file, subtracted from the second's. */
  base: string
  newer: string
  /** A goroutine capture: both dumps by stack, and every stack's count before and after. */
  goroutines?: { before: GoroutineDump; after: GoroutineDump; changes: GoroutineChange[] }
  /** `go tool pprof -top -diff_base` per sample index (a heap: inuse_space, then alloc_space); none for Go's text forms. */
  diffs: { sampleIndex?: string; report: TopReport }[]
}

/** The goroutine counts (a goroutine capture), then each diff's table under the pprof command that prints the same. */
export function renderGrowth(result: GrowthResult, rows: number): string {
  const interval = formatInterval(result.intervalMs)
  const sections: string[] = []
  if (result.goroutines) {
    const { before, after, changes } = result.goroutines
    sections.push(renderGoroutineGrowth(before, after, changes, interval, rows))
  }
  for (const { sampleIndex, report } of result.diffs) {
    const index = sampleIndex === undefined ? '' : ` (${sampleIndex})`
    const flag = sampleIndex === undefined ? '' : ` -sample_index=${sampleIndex}`
    sections.push(`what changed in ${interval}${index}: go tool pprof -top${flag} -diff_base ${result.base} ${result.newer}\n${renderTopReport(report)}`)
  }
  return sections.join('\n')
}

/** The countdown's words between the two captures. */
export const waitingText = (what: { kind: ProfileKindName; namespace: string; pod: string; intervalMs: number }) =>
  `waiting ${formatInterval(what.intervalMs)} for the second ${what.kind} capture from ${what.namespace}/${what.pod}`

/** 60000 -> 1m, 2000 -> 2s, 1500 -> 1500ms: the interval as --growth would take it. */
export function formatInterval(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}
