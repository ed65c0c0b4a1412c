import path from 'node:path'
import { readFile } from 'node:fs/promises'
import type { Connection } from '../cluster/connection.js'
import { captureProfile } from '../cluster/profile-capture.js'
import { defaultProfileName, type ProfileKindName } from '../pprof/capture.js'
import { goroutineChanges, goroutineGroups, parseGoroutineText, type GoroutineDump } from '../pprof/goroutines.js'
import type { GrowthResult } from '../pprof/results.js'
import { loadProfile, topReport } from './pprof-report.js'

/** The Pod to capture from, and the port there that serves net/http/pprof. */
export interface CaptureTarget {
  connection: Connection
  namespace: string
  pod: string
  /** Pod port; node-utils' 6666 when absent. */
  port?: number
  serverName?: string
}

export interface GrowthRequest {
  kind: ProfileKindName
  file?: string
  localPort?: number
  top: number
  textForm?: 1 | 2
  growthMs: number
}

/** What captures tell their command while they run; the command words it (render/pprof-capture.ts, render/pprof-growth.ts). */
export interface GrowthProgress {
  /** A capture is saved: its absolute path and size. */
  saved(file: string, bytes: number): void
  /** The wait between two captures starts; the command shows a countdown and gets back how to stop it. */
  waiting(what: { kind: ProfileKindName; namespace: string; pod: string; intervalMs: number }): Promise<{ stop(): void }>
}

/** One capture into `file`, told as saved. */
export async function captureOne(
  target: CaptureTarget,
  request: Omit<GrowthRequest, 'growthMs'> & { seconds?: number },
  file: string,
  progress: Pick<GrowthProgress, 'saved'>,
): Promise<void> {
  const { bytes } = await captureProfile({
    ...target,
    kind: request.kind,
    seconds: request.seconds,
    localPort: request.localPort,
    file,
    textForm: request.textForm,
  })
  progress.saved(path.resolve(file), bytes)
}

/**
 * `--growth`: two captures `growthMs` apart, then what changed between them, as
 * `go tool pprof -top -diff_base FIRST SECOND` shows it (for a heap: in use and
 * allocated), and for goroutines the stacks that gained some: a leak.
 */
export async function captureGrowth(target: CaptureTarget, request: GrowthRequest, progress: GrowthProgress): Promise<GrowthResult> {
  const { kind, growthMs: intervalMs } = request
  const base = request.file ? withSuffix(request.file, '.base') : defaultProfileName(target.namespace, target.pod, kind, new Date(), request.textForm)
  await captureOne(target, request, base, progress)
  const timer = await progress.waiting({ kind, namespace: target.namespace, pod: target.pod, intervalMs })
  try {
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  } finally {
    timer.stop()
  }
  const newer = request.file ?? defaultProfileName(target.namespace, target.pod, kind, new Date(), request.textForm)
  await captureOne(target, request, newer, progress)

  const result: GrowthResult = { kind, intervalMs, base, newer, diffs: [] }
  if (kind === 'goroutine') {
    const [before, after] = await Promise.all([base, newer].map((f) => goroutineDump(f, request.textForm)))
    result.goroutines = { before: before!, after: after!, changes: goroutineChanges(before!, after!) }
  }
  if (request.textForm === undefined) {
    // A heap shows both leaks: memory still held (inuse) and churn (alloc).
    const indexes = kind === 'heap' ? ['inuse_space', 'alloc_space'] : [undefined]
    for (const sampleIndex of indexes) result.diffs.push({ sampleIndex, report: await topReport({ file: newer, base, rows: request.top, sampleIndex }) })
  }
  return result
}

async function goroutineDump(file: string, textForm: 1 | 2 | undefined): Promise<GoroutineDump> {
  return textForm === undefined ? goroutineGroups(await loadProfile(file)) : parseGoroutineText(await readFile(file, 'utf8'))
}

/** heap.pb.gz -> heap.base.pb.gz; a name without those endings gets the suffix at the end. */
function withSuffix(file: string, suffix: string): string {
  const ending = /(\.pb\.gz|\.pb|\.txt|\.gz)$/.exec(file)?.[0] ?? ''
  return `${file.slice(0, file.length - ending.length)}${suffix}${ending}`
}
