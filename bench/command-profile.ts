/**
 * Where a short command of the single executable spends its time (issue 45: status and events against kubectl),
 * from V8 CPU profiles. Each of `status --all -n NS` and `events NODE -n NS` runs --runs times with --cpu-prof;
 * every sample is put in one phase by the functions on its stack (the first phase of PHASES that any of them
 * matches), and the medians per phase are printed with the time before the profiler starts (Node's own start)
 * and after it stops (exit, the profile written). A sample's phase is CPU time, or idle: waiting on the API server.
 *   npx tsx bench/command-profile.ts [--runs 5] [--dir .cluster] [--keep DIR] [--npm]
 * Uses the cluster in --dir (npm run cluster:up -- --scenarios) or starts a throw-away one; needs `npm run release`
 * (--npm: the npm package instead). --keep DIR keeps the profiles (open them in Chrome's DevTools). Never asserts.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { median } from './synthetic-profile.js'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, dir: { type: 'string' }, keep: { type: 'string' }, npm: { type: 'boolean', default: false } },
})
const root = path.resolve(import.meta.dirname, '..')
const executable = values.npm ? path.join(root, 'bin', 'chainnode') : path.join(root, 'release', `linux-${process.arch}`, 'kubectl-chainnode')
if (!existsSync(executable)) throw new Error(`${executable} is missing: npm run ${values.npm ? 'build' : 'release'}`)
const [NODE, NS] = ['node-0', 'sc-healthy-chain']
const LINES = [
  ['status', '--all', '-n', NS],
  ['events', NODE, '-n', NS],
]

/** A phase and the frames that put a sample in it (function name, or the end of the script's URL). */
const PHASES: { phase: string; leaf?: boolean; functions?: RegExp; url?: RegExp }[] = [
  { phase: 'idle: waiting on the API server', leaf: true, functions: /^\(idle\)$/ },
  { phase: 'garbage collection', leaf: true, functions: /^\(garbage collector\)$/ },
  { phase: "the command's bundle: read, compile (code cache), top level", functions: /^loadWithCodeCache$/ },
  { phase: 'kubeconfig', functions: /^loadKubeconfig$/ },
  { phase: 'TLS: context (CA), connect, handshake', functions: /^(?:createSecureContext|negotiate|sharedTls)$/, url: /(?:_tls_wrap|tls\/\w+)$/ },
  { phase: 'Node built-ins loaded on the way (http2, ...)', functions: /^compileForInternalLoader$/ },
  { phase: 'redaction of answers and logs', functions: /^(?:mask|seedPhrases|maskBlocks|maskPem|maskPrivKeys|bip39Runs|cleanLog)$/ },
  { phase: 'rules (operator-wide trouble)', functions: /^(?:diagnose|runRules)$/ },
  {
    phase: 'answers: HTTP/2 streams, bodies, JSON',
    functions: /^(?:parseJsonPruned|readBody|getJSON|sendHttp2)$/,
    url: /(?:http2\/core|streams\/\w+|stream_base_commons)$/,
  },
  {
    phase: 'rows, rendering, writing',
    functions: /^(?:statusRows|renderStatusText|statusNotes|operatorTroubleLines|relatedEvents|renderEventsTable|print|writeStdout)$/,
  },
  // Its own code only: the commands run below its frames.
  { phase: 'entry: argv, dispatch', leaf: true, url: /entry\.cjs$/ },
]
const OTHER = 'other (collection, indexing, Node internals)'

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

/** Milliseconds per phase of one profile. */
function phasesOf(profile: CpuProfile): Map<string, number> {
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const phaseOfNode = new Map<number, string>()
  const phaseOf = (id: number): string => {
    let phase = phaseOfNode.get(id)
    if (phase !== undefined) return phase
    const stack: CpuProfile['nodes'] = []
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!)
    const matches = (rule: (typeof PHASES)[number], frame: CpuProfile['nodes'][number]) =>
      rule.functions?.test(frame.callFrame.functionName) || rule.url?.test(frame.callFrame.url)
    phase = PHASES.find((rule) => (rule.leaf ? matches(rule, stack[0]) : stack.some((frame) => matches(rule, frame))))?.phase ?? OTHER
    phaseOfNode.set(id, phase)
    return phase
  }
  const ms = new Map<string, number>()
  // timeDeltas[i] is the time before sample i: sample i lasts until the next one.
  for (let i = 0; i < profile.samples.length; i++) {
    const phase = phaseOf(profile.samples[i])
    ms.set(phase, (ms.get(phase) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000)
  }
  return ms
}

const { env, stop } = await benchCluster(values.dir)
const work = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(tmpdir(), 'command-profile-'))
mkdirSync(work, { recursive: true })
console.log(`${values.npm ? 'npm package' : 'single executable'}: where the time goes, median of ${values.runs} profiled runs each`)
for (const line of LINES) {
  // A run unprofiled first: the code cache and the TLS session of a warm machine.
  spawnSync(executable, line, { env, stdio: 'ignore' })
  const runs = Array.from({ length: Number(values.runs) }, (_, i) => {
    const dir = path.join(work, `${line[0]}-${i}`)
    const started = Number(process.hrtime.bigint() / 1000n)
    const result = spawnSync(executable, line, { env: { ...env, NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` }, stdio: 'ignore' })
    const ended = Number(process.hrtime.bigint() / 1000n)
    if (result.status !== 0) throw new Error(`${line.join(' ')} exited ${result.status}`)
    const profile = JSON.parse(readFileSync(path.join(dir, readdirSync(dir)[0]), 'utf8')) as CpuProfile
    // The profile's clock is the monotonic one of process.hrtime, in microseconds.
    return {
      wall: (ended - started) / 1000,
      beforeProfile: (profile.startTime - started) / 1000,
      afterProfile: (ended - profile.endTime) / 1000,
      phases: phasesOf(profile),
    }
  })
  const med = (pick: (run: (typeof runs)[number]) => number) => median(runs.map(pick))
  console.log(`\n${line.join(' ')}   (load ${loadavg()[0].toFixed(2)} on ${cpus().length} cores; profiled wall ${med((r) => r.wall).toFixed(0)} ms)`)
  const row = (label: string, ms: number) => console.log(`  ${label.padEnd(64)} ${ms.toFixed(1).padStart(7)} ms`)
  row(
    "Node's start, before the profiler",
    med((r) => r.beforeProfile),
  )
  for (const phase of [...PHASES.map((p) => p.phase), OTHER])
    row(
      phase,
      med((r) => r.phases.get(phase) ?? 0),
    )
  row(
    'exit (the profile written, the process ended)',
    med((r) => r.afterProfile),
  )
}
if (!values.keep) rmSync(work, { recursive: true, force: true })
else console.log(`\nprofiles kept in ${work}`)
await stop()
