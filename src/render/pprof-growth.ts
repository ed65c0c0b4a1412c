import type { ProfileKindName } from '../pprof/capture.js'
import { renderGoroutineGrowth } from './goroutines.js'
import type { GrowthResult } from '../pprof/results.js'
import { renderTopReport } from './pprof-top.js'

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
