import type { ProfileKindName, ProfileTarget } from '../pprof/capture.js'
import { renderGoroutineGroups } from './goroutines.js'
import type { CaptureResult } from '../pprof/results.js'
import { renderGrowth } from './pprof-growth.js'
import { renderTopReport } from './pprof-top.js'

/** What a capture's reader must know first: whose profile it is, and that it can hold secrets. */
export function sensitiveNotice(target: ProfileTarget): string {
  const what =
    target === 'chain' ? 'the chain process (not node-utils, not total Pod memory)' : 'the node-utils process (not the chain process, not total Pod memory)'
  return `note: profiles describe only ${what} and can contain sensitive process data; keep them access-controlled.`
}

/** The countdown's words while a timed capture runs. */
export const capturingText = (what: { kind: ProfileKindName; namespace: string; pod: string }) => `capturing ${what.kind} from ${what.namespace}/${what.pod}`

/** A capture saved: where (an absolute path) and how large. */
export const savedText = (file: string, bytes: number) => `saved ${file} (${bytes} bytes)`

/** A capture's summary: the top table or what grew between two, goroutines grouped by stack, the command for a trace. */
export function renderCaptureResult(result: CaptureResult, rows: number): string {
  if (result.kind === 'trace') return `open it with: go tool trace ${result.file}`
  if (result.kind === 'goroutines') return renderGoroutineGroups(result.dump, rows)
  if (result.kind === 'growth') return renderGrowth(result.growth, rows)
  return renderTopReport(result.report)
}
