import type { ProfileKindName } from './capture.js'
import type { FlameGraph } from './flame.js'
import type { GoroutineChange, GoroutineDump } from './goroutines.js'
import type { TopResult } from './top.js'

/*
 * What the pprof commands compute (app/pprof-*.ts) and the renderers word (render/pprof-*.ts): plain data, kept
 * below both so the floor that computes does not depend on the floor that prints.
 */

/** What `pprof top` read (app/pprof-report.ts): the profile, the one subtracted from it, the filters asked for, and the table. */
export interface TopReport {
  file: string
  /** The older profile subtracted from `file` (pprof -diff_base). */
  base?: string
  /** The --focus and --ignore patterns asked for; the table says which matched nothing. */
  filters: FilterPatterns
  table: TopResult
}

export interface FilterPatterns {
  focus?: string
  ignore?: string
}

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

/** What a capture gives (app/pprof-capture.ts): the growth between two, the saved file's top table or goroutines by stack, or a trace to open. */
export type CaptureResult =
  { kind: 'growth'; growth: GrowthResult } | { kind: 'top'; report: TopReport } | { kind: 'goroutines'; dump: GoroutineDump } | { kind: 'trace'; file: string }

/** A flame graph written (app/pprof-flame.ts): where, as what, how large, and the graph drawn. */
export interface FlameWritten {
  output: string
  format: 'html' | 'svg'
  bytes: number
  graph: FlameGraph
}
