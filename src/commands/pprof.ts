import { writeStderr } from '../util/output.js'
import { usageError, ExitCode } from '../util/errors.js'
import { parseDuration } from '../util/duration.js'
import type { ProfileKindName } from '../pprof/capture.js'
import { captureFromNode } from '../app/pprof-capture.js'
import { capturingText, renderCaptureResult, savedText, sensitiveNotice } from '../render/pprof-capture.js'
import { flameWrittenText } from '../render/pprof-flame.js'
import { waitingText } from '../render/pprof-growth.js'
import { renderTopReport, unmatchedFilterWarnings } from '../render/pprof-top.js'
import { renderFinding } from '../render/doctor-text.js'
import { countdown } from '../render/progress.js'
import { topReport } from '../app/pprof-report.js'
import { writeFlame } from '../app/pprof-flame.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, outputSpec, REQUIRED_NODE_ARG, type FlagSpecs, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'
import { FLAME_FORMATS } from '../render/flame-formats.js'

/** The longest capture we accept: the request timeout follows it, and a forgotten run must end. */
export const MAX_SECONDS = 600

const CAPTURE_FLAGS = {
  ...GLOBAL_FLAGS,
  ...KUBE_FLAGS,
  output: { type: 'string', char: 'o', description: 'file to write (default <namespace>_<pod>_<kind>_<time>)' },
  'local-port': { type: 'integer', description: 'local port for the port-forward (default: a free one)', min: 1, max: 65535 },
  top: { type: 'integer', description: 'rows of the top table printed after a heap or CPU capture', default: 10, min: 1 },
  target: {
    type: 'string',
    description:
      "process to profile: node-utils, the operator's sidecar on Pod port 6666; or chain, the node's own process (gaiad, cometbft...) at rpc.pprof_laddr of its config.toml",
    options: ['node-utils', 'chain'],
    default: 'node-utils',
  },
} satisfies FlagSpecs

/** How every capture reads its profile, said in each capture's help. */
const CAPTURE_HELP =
  "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
const CAPTURE_GROWTH_HELP = `${CAPTURE_HELP} --growth takes a second capture after the interval and shows what grew.`

const GROWTH_FLAG = {
  growth: { type: 'string', description: 'take a second capture this long after the first (e.g. 60s) and show what grew between them' },
} satisfies FlagSpecs

export const PPROF_HEAP_COMMAND = defineCommand({
  summary: 'Capture a heap profile of node-utils (or, with --target chain, of the chain process) and print its top table',
  description: `${CAPTURE_HELP} --growth takes a second heap profile after the interval and shows what grew, in use and allocated (go tool pprof -diff_base).`,
  examples: [
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos',
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos --growth 60s',
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos --target chain --growth 60s',
  ],
  args: REQUIRED_NODE_ARG,
  flags: { ...CAPTURE_FLAGS, ...GROWTH_FLAG },
})
export const PPROF_GOROUTINE_COMMAND = defineCommand({
  summary: "Capture the goroutines of node-utils (protobuf, or Go's text forms with --text 1|2) and print them by stack",
  description: CAPTURE_GROWTH_HELP,
  examples: ['<%= config.bin %> pprof goroutine fullnode-0 -n cosmos --text 1', '<%= config.bin %> pprof goroutine fullnode-0 -n cosmos --growth 60s'],
  args: REQUIRED_NODE_ARG,
  flags: {
    ...CAPTURE_FLAGS,
    ...GROWTH_FLAG,
    text: {
      type: 'string',
      description: "Go's text form instead of protobuf: 1 counts goroutines per stack, 2 lists every goroutine with its state",
      options: ['1', '2'],
    },
  },
})
/** A capture that --growth can repeat, and its help: allocs, block and mutex differ only in what they read. */
const growthCapture = (summary: string, example: string) =>
  defineCommand({
    summary,
    description: CAPTURE_GROWTH_HELP,
    examples: [example],
    args: REQUIRED_NODE_ARG,
    flags: { ...CAPTURE_FLAGS, ...GROWTH_FLAG },
  })
export const PPROF_ALLOCS_COMMAND = growthCapture(
  'Capture the allocations of node-utils since it started and print their top table',
  '<%= config.bin %> pprof allocs fullnode-0 -n cosmos',
)
export const PPROF_BLOCK_COMMAND = growthCapture(
  'Capture where node-utils blocks on synchronisation (when its block profile rate is set) and print the top table',
  '<%= config.bin %> pprof block fullnode-0 -n cosmos',
)
export const PPROF_MUTEX_COMMAND = growthCapture(
  'Capture mutex contention in node-utils (when its mutex profile fraction is set) and print the top table',
  '<%= config.bin %> pprof mutex fullnode-0 -n cosmos',
)
export const PPROF_PROFILE_COMMAND = defineCommand({
  summary: 'Capture a CPU profile of node-utils for --seconds and print its top table',
  description: CAPTURE_HELP,
  examples: ['<%= config.bin %> pprof profile fullnode-0 -n cosmos --seconds 10'],
  args: REQUIRED_NODE_ARG,
  flags: { ...CAPTURE_FLAGS, seconds: { type: 'integer', description: 'CPU sampling duration', default: 30 } },
})
export const PPROF_TRACE_COMMAND = defineCommand({
  summary: 'Capture a Go execution trace of node-utils for --seconds',
  description: CAPTURE_HELP,
  examples: ['<%= config.bin %> pprof trace fullnode-0 -n cosmos --seconds 3'],
  args: REQUIRED_NODE_ARG,
  flags: { ...CAPTURE_FLAGS, seconds: { type: 'integer', description: 'tracing duration', default: 5 } },
})
export const PPROF_TOP_COMMAND = defineCommand({
  summary: 'Summarise a saved profile like `go tool pprof -top`, or what changed since an older one (--base), without Go',
  examples: [
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz',
    '<%= config.bin %> pprof top examples/profiles/cpu.pb.gz --top 30 --cum',
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz --sample-index alloc_space',
    '<%= config.bin %> pprof top examples/profiles/leak-after.pb.gz --base examples/profiles/leak-before.pb.gz',
    '<%= config.bin %> pprof top examples/profiles/leak-after.pb.gz --focus leakyCache -o json',
  ],
  args: { file: { description: 'saved profile (gzipped or raw pprof protobuf)', required: true } },
  flags: {
    ...GLOBAL_FLAGS,
    top: { type: 'integer', description: 'rows to print', default: 20, min: 1 },
    'sample-index': { type: 'string', description: 'sample type to show (heap: inuse_space by default; CPU: cpu)' },
    'node-fraction': { type: 'string', description: 'hide nodes below this fraction of the total (pprof -nodefraction)', default: '0.005' },
    cum: { type: 'boolean', description: 'sort by cumulative value' },
    base: { type: 'string', description: 'an older profile to subtract: show what grew or shrank since (pprof -diff_base)' },
    focus: { type: 'string', description: 'only samples through a function, file or binary matching this regexp (pprof -focus)' },
    ignore: { type: 'string', description: 'drop samples through a function, file or binary matching this regexp (pprof -ignore)' },
    output: outputSpec(['text', 'json']),
  },
})

export const PPROF_FLAME_COMMAND = defineCommand({
  summary: 'Draw a saved profile as a flame graph: a self-contained page with search and zoom, or an SVG picture',
  description:
    'Each frame is as wide as the samples under it, callers above callees, children widest first; the widest frame under the root is the function with the most samples (pprof top --cum). The page loads nothing from the network: open it in any browser, type a regexp to highlight functions and see their share, click a frame to zoom, Esc to reset.',
  examples: [
    '<%= config.bin %> pprof flame examples/profiles/cpu.pb.gz -o cpu.html',
    '<%= config.bin %> pprof flame examples/profiles/heap.pb.gz --sample-index alloc_space -o allocs.svg',
    '<%= config.bin %> pprof flame examples/profiles/leak-after.pb.gz --focus leakyCache -o leak.html',
  ],
  args: { file: { description: 'saved profile (gzipped or raw pprof protobuf)', required: true } },
  flags: {
    ...GLOBAL_FLAGS,
    output: {
      type: 'string',
      char: 'o',
      description: 'file to write: .html for a page with search and zoom, .svg for a picture (default <profile>.flame.html)',
    },
    'sample-index': { type: 'string', description: 'sample type to draw (heap: inuse_space by default; CPU: cpu)' },
    'node-fraction': { type: 'string', description: 'leave out frames narrower than this fraction of the total', default: '0.0001' },
    focus: { type: 'string', description: 'only samples through a function, file or binary matching this regexp (pprof -focus)' },
    ignore: { type: 'string', description: 'drop samples through a function, file or binary matching this regexp (pprof -ignore)' },
  },
})

type CaptureInput = Omit<InputOf<typeof PPROF_TRACE_COMMAND>, 'seconds'> & { seconds?: number; growth?: string; text?: '1' | '2' }

/** The longest --growth interval: a forgotten run must end. */
export const MAX_GROWTH_MS = 3_600_000

export async function runPprofTop(input: InputOf<typeof PPROF_TOP_COMMAND>, session: Session): Promise<ExitCode> {
  const nodeFraction = nodeFractionOf(input['node-fraction'])
  const report = await topReport({
    file: input.file,
    rows: input.top,
    sampleIndex: input['sample-index'],
    nodeFraction,
    cum: input.cum,
    base: input.base,
    focus: input.focus,
    ignore: input.ignore,
    onStep: (what) => session.output.debugLine(`pprof: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`),
  })
  for (const warning of unmatchedFilterWarnings(report.table.unmatchedFilters, report.filters)) writeStderr(warning)
  session.output.print(renderTopReport(report, input.output))
  return ExitCode.Clean
}

export async function runPprofFlame(input: InputOf<typeof PPROF_FLAME_COMMAND>, session: Session): Promise<ExitCode> {
  const minFraction = nodeFractionOf(input['node-fraction'])
  const written = await writeFlame(
    {
      file: input.file,
      output: input.output,
      sampleIndex: input['sample-index'],
      focus: input.focus,
      ignore: input.ignore,
      minFraction,
      onStep: (what) => session.output.debugLine(`pprof: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`),
    },
    FLAME_FORMATS,
  )
  for (const warning of unmatchedFilterWarnings(written.graph.unmatchedFilters, input)) writeStderr(warning)
  writeStderr(`${flameWrittenText(written)}\n`)
  return ExitCode.Clean
}

function nodeFractionOf(text: string): number {
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw usageError(`--node-fraction "${text}" is not a number between 0 and 1`, 'e.g. --node-fraction 0 to show every function')
  return value
}

/** pprof heap|profile|trace|goroutine|allocs|block|mutex: port-forward to node-utils' 127.0.0.1:6666, save the profile, summarise it. */
export const runPprofHeap = (input: InputOf<typeof PPROF_HEAP_COMMAND>, session: Session) => capture('heap', input, session)
export const runPprofGoroutine = (input: InputOf<typeof PPROF_GOROUTINE_COMMAND>, session: Session) => capture('goroutine', input, session)
export const runPprofAllocs = (input: InputOf<typeof PPROF_ALLOCS_COMMAND>, session: Session) => capture('allocs', input, session)
export const runPprofBlock = (input: InputOf<typeof PPROF_BLOCK_COMMAND>, session: Session) => capture('block', input, session)
export const runPprofMutex = (input: InputOf<typeof PPROF_MUTEX_COMMAND>, session: Session) => capture('mutex', input, session)
export const runPprofProfile = (input: InputOf<typeof PPROF_PROFILE_COMMAND>, session: Session) => capture('profile', input, session)
export const runPprofTrace = (input: InputOf<typeof PPROF_TRACE_COMMAND>, session: Session) => capture('trace', input, session)

async function capture(kind: ProfileKindName, input: CaptureInput, session: Session): Promise<ExitCode> {
  if (input.seconds !== undefined && (input.seconds < 1 || input.seconds > MAX_SECONDS)) {
    throw usageError(`--seconds ${input.seconds} is out of range`, `give 1 to ${MAX_SECONDS} seconds`)
  }
  const growthMs = input.growth === undefined ? undefined : parseDuration(input.growth, '--growth')
  if (growthMs !== undefined && (growthMs < 1000 || growthMs > MAX_GROWTH_MS))
    throw usageError(`--growth ${input.growth} is out of range`, 'give 1s to 1h, e.g. --growth 60s')
  const result = await captureFromNode(
    session.reader,
    input,
    {
      kind,
      name: input.name,
      seconds: input.seconds,
      file: input.output,
      localPort: input['local-port'],
      top: input.top,
      textForm: input.text === undefined ? undefined : (Number(input.text) as 1 | 2),
      growthMs,
      target: input.target === 'chain' ? 'chain' : 'node-utils',
    },
    {
      notice: (target) => writeStderr(`${sensitiveNotice(target)}\n`),
      capturing: (what) => countdown(capturingText(what), what.seconds),
      saved: (file, bytes) => writeStderr(`${savedText(file, bytes)}\n`),
      waiting: (what) => countdown(waitingText(what), Math.ceil(what.intervalMs / 1000)),
      unavailable: (findings) => findings.forEach((finding) => writeStderr(`${renderFinding(finding, session.output.palette).join('\n')}\n`)),
    },
  )
  session.output.print(renderCaptureResult(result, input.top))
  return ExitCode.Clean
}
