import { writeStderr } from '../util/output.js'
import path from 'node:path'
import { readFile } from 'node:fs/promises'
import type { Connection } from './session.js'
import { captureProfile } from '../cluster/profile-capture.js'
import { defaultProfileName, type ProfileKindName } from '../pprof/capture.js'
import { goroutineChanges, goroutineGroups, parseGoroutineText, type GoroutineDump } from '../pprof/goroutines.js'
import { renderGoroutineGrowth } from '../render/goroutines.js'
import { countdown } from '../render/progress.js'
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

/** One capture into `file`, told on stderr. */
export async function captureOne(target: CaptureTarget, request: Omit<GrowthRequest, 'growthMs'> & { seconds?: number }, file: string): Promise<void> {
  const { bytes } = await captureProfile({
    ...target,
    kind: request.kind,
    seconds: request.seconds,
    localPort: request.localPort,
    file,
    textForm: request.textForm,
  })
  writeStderr(`saved ${path.resolve(file)} (${bytes} bytes)\n`)
}

/**
 * `--growth`: two captures `growthMs` apart, then what changed between them, as
 * `go tool pprof -top -diff_base FIRST SECOND` shows it (for a heap: in use and
 * allocated), and for goroutines the stacks that gained some: a leak.
 */
export async function captureGrowth(target: CaptureTarget, request: GrowthRequest): Promise<string> {
  const first = new Date()
  const base = request.file ? withSuffix(request.file, '.base') : defaultProfileName(target.namespace, target.pod, request.kind, first, request.textForm)
  await captureOne(target, request, base)
  const interval = formatInterval(request.growthMs)
  const timer = await countdown(
    `waiting ${interval} for the second ${request.kind} capture from ${target.namespace}/${target.pod}`,
    Math.ceil(request.growthMs / 1000),
  )
  try {
    await new Promise((resolve) => setTimeout(resolve, request.growthMs))
  } finally {
    timer.stop()
  }
  const newer = request.file ?? defaultProfileName(target.namespace, target.pod, request.kind, new Date(), request.textForm)
  await captureOne(target, request, newer)

  const sections: string[] = []
  if (request.kind === 'goroutine') {
    const dumps = await Promise.all([base, newer].map((f) => goroutineDump(f, request.textForm)))
    sections.push(renderGoroutineGrowth(dumps[0]!, dumps[1]!, goroutineChanges(dumps[0]!, dumps[1]!), interval, request.top))
  }
  if (request.textForm === undefined) {
    // A heap shows both leaks: memory still held (inuse) and churn (alloc).
    const indexes = request.kind === 'heap' ? ['inuse_space', 'alloc_space'] : [undefined]
    for (const sampleIndex of indexes) {
      const title = `what changed in ${interval}${sampleIndex ? ` (${sampleIndex})` : ''}: go tool pprof -top${sampleIndex ? ` -sample_index=${sampleIndex}` : ''} -diff_base ${base} ${newer}`
      sections.push(`${title}\n${await topReport({ file: newer, base, rows: request.top, sampleIndex })}`)
    }
  }
  return sections.join('\n')
}

async function goroutineDump(file: string, textForm: 1 | 2 | undefined): Promise<GoroutineDump> {
  return textForm === undefined ? goroutineGroups(await loadProfile(file)) : parseGoroutineText(await readFile(file, 'utf8'))
}

/** heap.pb.gz -> heap.base.pb.gz; a name without those endings gets the suffix at the end. */
function withSuffix(file: string, suffix: string): string {
  const ending = /(\.pb\.gz|\.pb|\.txt|\.gz)$/.exec(file)?.[0] ?? ''
  return `${file.slice(0, file.length - ending.length)}${suffix}${ending}`
}

function formatInterval(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000}m` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`
}
