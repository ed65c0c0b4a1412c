import path from 'node:path'
import type { Connection, KubeFlags, Session } from './session.js'
import { captureProfile } from '../cluster/profile-capture.js'
import { usageError } from '../util/errors.js'
import { CaptureError, defaultProfileName, type ProfileKindName } from '../pprof/capture.js'
import { renderFinding } from '../render/doctor-text.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { resolveScope } from '../snapshot/scope.js'
import { countdown } from '../render/progress.js'
import { diagnose, selectRules } from './doctor.js'
import { SENSITIVE_NOTICE, topReport } from './pprof-report.js'
import { liveSnapshot } from './snapshots.js'
import { writeStderr } from '../util/output.js'

export interface CaptureRequest {
  kind: ProfileKindName
  name: string
  seconds?: number
  /** Where to save it; by default <namespace>_<pod>_<kind>_<time> in the working folder. */
  file?: string
  localPort?: number
  top: number
}

/** pprof heap|profile|trace: port-forward to node-utils' 127.0.0.1:6666, save the profile, summarise it. */
export async function captureFromNode(session: Session, flags: KubeFlags, request: CaptureRequest): Promise<void> {
  const { kind } = request
  const connection = await session.connect(flags)
  const namespace = connection.context.namespace
  const pod = await nodePod(session, connection, request.name)
  const file = request.file ?? defaultProfileName(namespace, pod, kind)
  writeStderr(`${SENSITIVE_NOTICE}\n`)
  const timer = kind === 'heap' ? undefined : await countdown(`capturing ${kind} from ${namespace}/${pod}`, request.seconds ?? 0)
  try {
    const { bytes } = await captureProfile({ connection, namespace, pod, kind, seconds: request.seconds, localPort: request.localPort, file })
    timer?.stop()
    writeStderr(`saved ${path.resolve(file)} (${bytes} bytes)\n`)
    session.print(kind === 'trace' ? `open it with: go tool trace ${file}` : await topReport({ file, rows: request.top }))
  } catch (error) {
    timer?.stop()
    // Something else on 6666 answers with a non-profile, or nothing answers: either way, say why if the cluster shows it.
    if (error instanceof CaptureError && (error.kind === 'unreachable' || error.kind === 'not-profile'))
      await explainUnavailable(session, connection, request.name, pod, error)
    throw error
  }
}

/** A node's snapshot without logs (or with them, to explain a failure), read the way every command reads one. */
function nodeSnapshot(session: Session, connection: Connection, name: string, logs: 'none' | 'all') {
  return liveSnapshot(connection, {
    scope: resolveScope({ name }, connection.context.namespace, { nameRequired: true }),
    cliVersion: session.version,
    redact: false,
    logs,
    tailLines: logs === 'none' ? 1 : 500,
    maxLogBytes: logs === 'none' ? 1 : 1 << 20,
  })
}

async function nodePod(session: Session, connection: Connection, name: string): Promise<string> {
  const index = new SnapshotIndex(await nodeSnapshot(session, connection, name, 'none'))
  const pod = index.podOf(index.chainNodes()[0])
  const namespace = connection.context.namespace
  if (!pod) throw usageError(`chainnode "${name}" has no Pod to profile`, `see chainnode describe ${name} -n ${namespace}`)
  return pod.metadata.name
}

/** Nothing answered on 6666: say why, using the profiling-unavailable rule on fresh evidence. */
async function explainUnavailable(session: Session, connection: Connection, name: string, pod: string, error: CaptureError): Promise<void> {
  const snapshot = await nodeSnapshot(session, connection, name, 'all')
  const namespace = connection.context.namespace
  snapshot.probes.push({ kind: 'pprof', namespace, pod, target: `pod/${pod}:6666`, ok: false, detail: error.message, at: new Date().toISOString() })
  const result = diagnose([snapshot], selectRules({ only: ['profiling-unavailable'] }))
  for (const finding of result.clusters[0].report.findings) writeStderr(`${renderFinding(finding, session.palette).join('\n')}\n`)
}
