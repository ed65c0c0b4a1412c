import { renderTop } from '../pprof/format.js'
import { topJson } from '../pprof/top-json.js'
import type { FilterPatterns, TopReport } from '../pprof/results.js'

/** The table as `go tool pprof -top` prints it, or as JSON (pprof/top-json.ts). */
export function renderTopReport(report: TopReport, format: 'text' | 'json' = 'text'): string {
  return format === 'json' ? topJson(report.table, { file: report.file, base: report.base }) : renderTop(report.table)
}

/** One stderr line per filter that matched nothing, as go tool pprof warns; `unmatched` names the flags (focus, ignore). */
export function unmatchedFilterWarnings(unmatched: readonly string[], filters: FilterPatterns): string[] {
  return unmatched.map((name) => `warning: no function, file or binary matches --${name} ${name === 'focus' ? filters.focus : filters.ignore}\n`)
}
