import type { Connection } from '../cluster/connection.js'
import type { ClusterReader } from './cluster-reader.js'
import { resolveScope, type KubeFlags } from './snapshot-source.js'
import { usageError } from '../util/errors.js'
import { readFile } from 'node:fs/promises'
import { CaptureError, defaultProfileName, PROFILE_KINDS, type ProfileKindName, type ProfileTarget } from '../pprof/capture.js'
import { parseGoroutineText } from '../pprof/goroutines.js'
import type { CaptureResult } from '../pprof/results.js'
import { captureGrowth, captureOne, type GrowthProgress } from './pprof-growth.js'
import type { Finding } from '../engine/define-rule.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { diagnose, selectRules } from './doctor.js'
import { topReport } from './pprof-report.js'
import { profilingEndpoint, type ProfilingEndpoint } from './pprof-target.js'
import { liveSnapshot } from './live-source.js'

export interface CaptureRequest {
  kind: ProfileKindName
  name: string
  seconds?: number
  /** Where to save it; by default <namespace>_<pod>_<kind>_<time> in the working folder. */
  file?: string
  localPort?: number
  top: number
  /** Go's ?debug=1 or ?debug=2 text form (goroutine). */
  textForm?: 1 | 2
  /** Take two captures this far apart and show what grew. */
  growthMs?: number
  /** node-utils (Pod port 6666) or the chain process (rpc.pprof_laddr); node-utils by default. */
  target?: ProfileTarget
}

/** What a capture tells its command while it runs; the command words it (render/pprof-capture.ts). */
export interface CaptureProgress extends GrowthProgress {
  /** Before anything is read: which process the profile describes. */
  notice(target: ProfileTarget): void
  /** A timed capture starts; the command shows a countdown and gets back how to stop it. */
  capturing(what: { kind: ProfileKindName; namespace: string; pod: string; seconds: number }): Promise<{ stop(): void }>
  /** Nothing answered, or not with a profile: the profiling-unavailable findings that say why. */
  unavailable(findings: Finding[]): void
}

/** pprof heap|profile|goroutine|...: port-forward to node-utils' 127.0.0.1:6666, save the profile, summarise it. */
export async function captureFromNode(reader: ClusterReader, flags: KubeFlags, request: CaptureRequest, progress: CaptureProgress): Promise<CaptureResult> {
  const { kind } = request
  const connection = await reader.connect(flags)
  const namespace = connection.context.namespace
  const targetName = request.target ?? 'node-utils'
  const { pod, endpoint } = await nodePod(reader, connection, request.name, targetName)
  progress.notice(targetName)
  const target = { connection, namespace, pod, ...endpoint }
  const timed = PROFILE_KINDS[kind].timed
  const timer = timed ? await progress.capturing({ kind, namespace, pod, seconds: request.seconds ?? 0 }) : undefined
  try {
    if (request.growthMs !== undefined) return { kind: 'growth', growth: await captureGrowth(target, { ...request, growthMs: request.growthMs }, progress) }
    const file = request.file ?? defaultProfileName(namespace, pod, kind, new Date(), request.textForm)
    await captureOne(target, request, file, progress)
    timer?.stop()
    return await summarise(kind, file, request)
  } catch (error) {
    timer?.stop()
    // Something else on 6666 answers with a non-profile, or nothing answers: either way, say why if the cluster shows it.
    if (targetName === 'node-utils' && error instanceof CaptureError && (error.kind === 'unreachable' || error.kind === 'not-profile'))
      progress.unavailable(await whyUnavailable(reader, connection, request.name, pod, error))
    throw error
  }
}

/** What a capture shows: the top table, goroutines grouped by stack for a text dump, the command for a trace. */
async function summarise(kind: ProfileKindName, file: string, request: CaptureRequest): Promise<CaptureResult> {
  if (kind === 'trace') return { kind: 'trace', file }
  if (request.textForm !== undefined) return { kind: 'goroutines', dump: parseGoroutineText(await readFile(file, 'utf8')) }
  return { kind: 'top', report: await topReport({ file, rows: request.top }) }
}

/** A node's snapshot without logs (or with them, to explain a failure), read the way every command reads one. */
function nodeSnapshot(reader: ClusterReader, connection: Connection, name: string, logs: 'none' | 'all') {
  return liveSnapshot(connection, {
    scope: resolveScope({ name }, connection.context.namespace, { nameRequired: true }),
    cliVersion: reader.cliVersion,
    redact: false,
    logs,
    tailLines: logs === 'none' ? 1 : 500,
    maxLogBytes: logs === 'none' ? 1 : 1 << 20,
  })
}

async function nodePod(
  reader: ClusterReader,
  connection: Connection,
  name: string,
  target: ProfileTarget,
): Promise<{ pod: string; endpoint: ProfilingEndpoint }> {
  const index = new SnapshotIndex(await nodeSnapshot(reader, connection, name, 'none'))
  const node = index.chainNodes()[0]
  const pod = index.podOf(node)
  const namespace = connection.context.namespace
  if (!pod) throw usageError(`chainnode "${name}" has no Pod to profile`, `see chainnode describe ${name} -n ${namespace}`)
  return { pod: pod.metadata.name, endpoint: profilingEndpoint(index, node, target) }
}

/** Nothing answered on 6666: why, from the profiling-unavailable rule on fresh evidence. */
async function whyUnavailable(reader: ClusterReader, connection: Connection, name: string, pod: string, error: CaptureError): Promise<Finding[]> {
  const snapshot = await nodeSnapshot(reader, connection, name, 'all')
  const namespace = connection.context.namespace
  snapshot.probes.push({ kind: 'pprof', namespace, pod, target: `pod/${pod}:6666`, ok: false, detail: error.message, at: new Date().toISOString() })
  const result = diagnose([snapshot], selectRules({ only: ['profiling-unavailable'] }))
  return result.clusters[0].report.findings
}
