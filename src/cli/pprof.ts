import path from 'node:path'
import { collectSnapshot } from '../cluster/collect.js'
import { captureProfile } from '../cluster/profile-capture.js'
import { usageError } from '../errors.js'
import { CaptureError, defaultProfileName, type ProfileKindName } from '../pprof/capture.js'
import { renderFinding } from '../render/doctor-text.js'
import { diagnose, selectRules } from '../services/doctor.js'
import { SENSITIVE_NOTICE, topReport } from '../services/pprof-report.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { countdown } from '../ui/progress.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, REQUIRED_NODE_ARG, type FlagSpecs, type InputOf } from './flag-spec.js'
import type { Connection, Session } from './session.js'

/** The longest capture we accept: the request timeout follows it, and a forgotten run must end. */
export const MAX_SECONDS = 600

const CAPTURE_FLAGS = {
  ...GLOBAL_FLAGS,
  ...KUBE_FLAGS,
  output: { type: 'string', char: 'o', description: 'file to write (default <namespace>_<pod>_<kind>_<time>)' },
  'local-port': { type: 'integer', description: 'local port for the port-forward (default: a free one)', min: 1, max: 65535 },
  top: { type: 'integer', description: 'rows of the top table printed after a heap or CPU capture', default: 10, min: 1 },
} satisfies FlagSpecs

export const PPROF_HEAP_COMMAND = defineCommand({ args: REQUIRED_NODE_ARG, flags: CAPTURE_FLAGS })
export const PPROF_PROFILE_COMMAND = defineCommand({
  args: REQUIRED_NODE_ARG,
  flags: { ...CAPTURE_FLAGS, seconds: { type: 'integer', description: 'CPU sampling duration', default: 30 } },
})
export const PPROF_TRACE_COMMAND = defineCommand({
  args: REQUIRED_NODE_ARG,
  flags: { ...CAPTURE_FLAGS, seconds: { type: 'integer', description: 'tracing duration', default: 5 } },
})
export const PPROF_TOP_COMMAND = defineCommand({
  args: { file: { description: 'saved profile (gzipped or raw pprof protobuf)', required: true } },
  flags: {
    ...GLOBAL_FLAGS,
    top: { type: 'integer', description: 'rows to print', default: 20, min: 1 },
    'sample-index': { type: 'string', description: 'sample type to show (heap: inuse_space by default; CPU: cpu)' },
    'node-fraction': { type: 'string', description: 'hide nodes below this fraction of the total (pprof -nodefraction)', default: '0.005' },
    cum: { type: 'boolean', description: 'sort by cumulative value' },
  },
})

type CaptureInput = InputOf<typeof PPROF_HEAP_COMMAND> & { seconds?: number }

export async function runPprofTop(input: InputOf<typeof PPROF_TOP_COMMAND>, session: Session): Promise<void> {
  await session.setupOutput(input)
  const nodeFraction = Number(input['node-fraction'])
  if (!Number.isFinite(nodeFraction) || nodeFraction < 0 || nodeFraction > 1)
    throw usageError(`--node-fraction "${input['node-fraction']}" is not a number between 0 and 1`, 'e.g. --node-fraction 0 to show every function')
  session.print(
    await topReport({
      file: input.file,
      rows: input.top,
      sampleIndex: input['sample-index'],
      nodeFraction,
      cum: input.cum,
      onStep: (what) => session.debugLine(`pprof: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`),
    }),
  )
}

/** pprof heap|profile|trace: port-forward to node-utils' 127.0.0.1:6666, save the profile, summarise it. */
export const runPprofHeap = (input: InputOf<typeof PPROF_HEAP_COMMAND>, session: Session) => capture('heap', input, session)
export const runPprofProfile = (input: InputOf<typeof PPROF_PROFILE_COMMAND>, session: Session) => capture('profile', input, session)
export const runPprofTrace = (input: InputOf<typeof PPROF_TRACE_COMMAND>, session: Session) => capture('trace', input, session)

async function capture(kind: ProfileKindName, input: CaptureInput, session: Session): Promise<void> {
  await session.setupOutput(input)
  if (input.seconds !== undefined && (input.seconds < 1 || input.seconds > MAX_SECONDS)) {
    throw usageError(`--seconds ${input.seconds} is out of range`, `give 1 to ${MAX_SECONDS} seconds`)
  }
  const connection = await session.connect(input)
  const namespace = connection.context.namespace
  const pod = await nodePod(session, connection, namespace, input.name)
  const file = input.output ?? defaultProfileName(namespace, pod, kind)
  process.stderr.write(`${SENSITIVE_NOTICE}\n`)
  const timer = kind === 'heap' ? undefined : await countdown(`capturing ${kind} from ${namespace}/${pod}`, input.seconds ?? 0)
  try {
    const { bytes } = await captureProfile({ connection, namespace, pod, kind, seconds: input.seconds, localPort: input['local-port'], file })
    timer?.stop()
    process.stderr.write(`saved ${path.resolve(file)} (${bytes} bytes)\n`)
    session.print(kind === 'trace' ? `open it with: go tool trace ${file}` : await topReport({ file, rows: input.top }))
  } catch (error) {
    timer?.stop()
    // Something else on 6666 answers with a non-profile, or nothing answers: either way, say why if the cluster shows it.
    if (error instanceof CaptureError && (error.kind === 'unreachable' || error.kind === 'not-profile'))
      await explainUnavailable(session, connection, namespace, input.name, pod, error)
    throw error
  }
}

async function nodePod(session: Session, connection: Connection, namespace: string, name: string): Promise<string> {
  const snapshot = await collectSnapshot(connection.client, {
    scope: { kind: 'node', namespace, name },
    cliVersion: session.version,
    contextName: connection.context.contextName,
    logs: { mode: 'none', tailLines: 1, maxBytes: 1 },
  })
  const index = new SnapshotIndex(snapshot)
  const pod = index.podOf(index.chainNodes()[0])
  if (!pod) throw usageError(`chainnode "${name}" has no Pod to profile`, `see chainnode describe ${name} -n ${namespace}`)
  return pod.metadata.name
}

/** Nothing answered on 6666: say why, using the profiling-unavailable rule on fresh evidence. */
async function explainUnavailable(session: Session, connection: Connection, namespace: string, name: string, pod: string, error: CaptureError): Promise<void> {
  const snapshot = await collectSnapshot(connection.client, {
    scope: { kind: 'node', namespace, name },
    cliVersion: session.version,
    contextName: connection.context.contextName,
    logs: { mode: 'all', tailLines: 500, maxBytes: 1 << 20 },
  })
  snapshot.probes.push({ kind: 'pprof', namespace, pod, target: `pod/${pod}:6666`, ok: false, detail: error.message, at: new Date().toISOString() })
  const result = diagnose([snapshot], selectRules({ only: ['profiling-unavailable'] }))
  for (const finding of result.clusters[0].report.findings) process.stderr.write(`${renderFinding(finding, session.palette).join('\n')}\n`)
}
