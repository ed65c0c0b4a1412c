/**
 * The figures of the scenario fleet (every scenario seeded, about 31 ChainNodes), each beside kubectl's and its target.
 *   npx tsx bench/scenario-fleet.ts [--runs 5] [--dir .cluster] [--base ../main] [--profile FILE] [--only doctor-all,status]
 * Uses the cluster in --dir (npx tsx test/cluster/cli.ts up --scenarios) or starts a throw-away one with the scenarios.
 * --base: another checkout's build (e.g. main's, after its `npm run build` and `npm run release`), run beside this one
 * in the same rounds, so a before/after reads as a ratio on a shared machine. Every round runs each command of each
 * figure once (ours, the base's, kubectl's), the order turning every round; the medians, their ratios and the load
 * average at the end of each figure are printed. With --base, doctor -A's findings of both builds are compared first
 * (--only verdicts,...). Never asserts.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { median, syntheticProfile } from './synthetic-profile.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    dir: { type: 'string' },
    base: { type: 'string' },
    profile: { type: 'string' },
    only: { type: 'string' },
  },
})
const root = path.resolve(import.meta.dirname, '..')
const runs = Number(values.runs)
// kubectl of the test tools (the apiserver's version), unless KUBECTL names another.
const kubectl =
  process.env.KUBECTL ??
  path.join(execFileSync('bash', [path.join(root, 'scripts', 'build-tools.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(), 'kubectl')
const work = mkdtempSync(path.join(tmpdir(), 'scenario-fleet-bench-'))

/** A build to measure: its npm package (bin/chainnode) and, when `npm run release` made it, its single executable. */
interface Build {
  label: string
  bin: string
  release?: string
}
const buildOf = (label: string, dir: string): Build => {
  const release = path.join(dir, 'release', `linux-${process.arch}`, 'kubectl-chainnode')
  return { label, bin: path.join(dir, 'bin', 'chainnode'), release: existsSync(release) ? release : undefined }
}
const builds = [buildOf('this build', root), ...(values.base ? [buildOf(`base (${values.base})`, path.resolve(values.base))] : [])]

const only = values.only?.split(',')
const chosen = (id: string) => !only || only.includes(id)
// The flame graph alone needs no cluster.
const { ctx, env, stop } = only?.every((id) => id === 'flame')
  ? { ctx: undefined, env: { ...process.env, NO_COLOR: '1' }, stop: async () => {} }
  : await benchCluster(values.dir)
/**
 * Each build's runs keep what they remember of the cluster (probed ports, history, compiled code) in a state directory
 * of their own, from empty: one build's memory is not read by the other, and no run reads what this machine's earlier
 * clusters left (a history of hundreds of throw-away test clusters).
 */
const envOf = (executable: string) => ({ ...env, KUBECTL_CHAINNODE_STATE_DIR: path.join(work, 'state', executable.replace(/[^\w.-]+/g, '_')) })
const wall = (command: string[]) => {
  const start = process.hrtime.bigint()
  const result = spawnSync(command[0], command.slice(1), { env: envOf(command[0]), stdio: 'ignore', maxBuffer: 1 << 28 })
  if (result.error) throw result.error
  return Number(process.hrtime.bigint() - start) / 1e6
}
const load = () => `load ${loadavg()[0].toFixed(2)} on ${cpus().length} cores`

/** One figure: our command (args after the executable) per build, kubectl's peer when there is one, and the target. */
interface Figure {
  id: string
  title: string
  ours: string[]
  /** Which of a build's executables runs it. */
  executable: 'npm' | 'release'
  kubectl?: string[]
  /** What any run showing the same must do at least (the network floor), run in the same rounds: what the target can reach. */
  floor?: { label: string; command: string[] }
  /** At most this many ms, or at most this ratio to kubectl's median. */
  target: { ms: number } | { ratio: number }
}
const [NODE, NS] = ['node-0', 'sc-healthy-chain']
const FIGURES: Figure[] = [
  { id: 'doctor-all', title: 'doctor -A (chain probes on)', ours: ['doctor', '-A', '--fail-on', 'never'], executable: 'npm', target: { ms: 2000 } },
  {
    id: 'doctor-all-no-probe',
    title: 'doctor -A --no-probe',
    ours: ['doctor', '-A', '--no-probe', '--fail-on', 'never'],
    executable: 'npm',
    target: { ms: 2000 },
  },
  {
    id: 'doctor-stalled',
    title: 'doctor NAME, a stalled node (sc-chain-halt full-0)',
    ours: ['doctor', 'full-0', '-n', 'sc-chain-halt', '--fail-on', 'never'],
    executable: 'npm',
    target: { ms: 1500 },
  },
  {
    id: 'doctor-healthy',
    title: `doctor NAME, a healthy node (${NS} ${NODE})`,
    ours: ['doctor', NODE, '-n', NS, '--fail-on', 'never'],
    executable: 'npm',
    target: { ms: 1500 },
  },
  {
    id: 'status',
    title: 'status -A -o wide',
    ours: ['status', '-A', '-o', 'wide'],
    executable: 'npm',
    kubectl: ['get', 'chainnodes', '-A', '-o', 'wide'],
    floor: { label: 'floor: lists + RPC reads only', command: [process.execPath, path.join(root, 'bench', 'status-floor.mjs'), path.join(root, 'dist')] },
    target: { ratio: 3 },
  },
]
// The every-day commands against their kubectl equivalents (as bench/commands.ts), the single executable and the npm package.
const EVERYDAY = [
  { id: 'status', ours: ['status', '--all', '-n', NS], kubectl: ['get', 'chainnode', '-n', NS, '-o', 'wide'] },
  { id: 'events', ours: ['events', NODE, '-n', NS], kubectl: ['get', 'events', '-n', NS] },
]
for (const executable of ['release', 'npm'] as const)
  for (const line of EVERYDAY)
    FIGURES.push({
      ...line,
      id: `${executable}-${line.id}`,
      title: `${executable === 'release' ? 'single executable' : 'npm package'}: ${line.ours.join(' ')}`,
      executable,
      target: { ratio: 1.2 },
    })

const fmt = (ms: number) => `${ms.toFixed(0).padStart(6)} ms`
function verdict(figure: Figure, ms: number, kubectlMs?: number): string {
  if ('ms' in figure.target) return `target ≤ ${figure.target.ms} ms: ${(ms / figure.target.ms).toFixed(2)} of it`
  if (kubectlMs === undefined) return ''
  return `${(ms / kubectlMs).toFixed(2)}x kubectl (target ≤ ${figure.target.ratio}x)`
}

if (ctx) await refreshLiveness(ctx)
if (builds.length > 1 && chosen('verdicts')) verdicts()
console.log(`scenario fleet: ${runs} alternated rounds per figure; builds: ${builds.map((b) => `${b.label}${b.release ? ' + release' : ''}`).join(', ')}`)
for (const figure of FIGURES.filter((f) => chosen(f.id))) {
  const commands = builds
    .map((build) => ({ label: build.label, exe: figure.executable === 'npm' ? build.bin : build.release }))
    .filter((c): c is { label: string; exe: string } => c.exe !== undefined)
    .map((c) => ({ label: c.label, command: [c.exe, ...figure.ours], times: [] as number[] }))
  if (commands.length === 0) {
    console.log(`\n${figure.title}: skipped (no single executable: npm run release)`)
    continue
  }
  const peers = [
    ...commands,
    ...(figure.floor ? [{ ...figure.floor, times: [] as number[] }] : []),
    ...(figure.kubectl ? [{ label: 'kubectl', command: [kubectl, ...figure.kubectl], times: [] as number[] }] : []),
  ]
  for (const peer of peers) wall(peer.command) // warm-up: caches, the first TLS session
  for (let i = 0; i < runs; i++) for (let j = 0; j < peers.length; j++) peers[(i + j) % peers.length].times.push(wall(peers[(i + j) % peers.length].command))
  const kubectlMs = figure.kubectl ? median(peers.at(-1)!.times) : undefined
  console.log(`\n${figure.title}   (${load()})`)
  for (const peer of peers) {
    const ms = median(peer.times)
    const versus = peer.label === 'kubectl' ? '' : verdict(figure, ms, kubectlMs)
    const vsBase = commands.includes(peer) && peer !== commands[0] ? `, this build / base ${(median(commands[0].times) / ms).toFixed(2)}` : ''
    console.log(`  ${peer.label.padEnd(40)} ${fmt(ms)}  [${peer.times.map((t) => t.toFixed(0)).join(' ')}]  ${versus}${vsBase}`)
  }
}

if (chosen('breakdown')) breakdown()
if (chosen('serve')) await serveFirstCycle()
if (chosen('flame')) flameSvg()
rmSync(work, { recursive: true, force: true })
await stop()

/**
 * doctor -A -o json of this build against the base's, run base, this, base back to back: a finding (rule, node,
 * summary with its numbers left out) of this build that neither base run has, or one both base runs have and this
 * build lacks, is printed. Findings that come and go with time (a lease renewed, a block just old enough) show in
 * one base run only and are not counted.
 */
function verdicts() {
  const findings = (bin: string) => {
    const result = spawnSync(bin, ['doctor', '-A', '-o', 'json', '--fail-on', 'never'], { env: envOf(bin), encoding: 'utf8', maxBuffer: 1 << 28 })
    const report = JSON.parse(result.stdout) as {
      clusters: {
        findings: { ruleId: string; summary: string; node?: { namespace?: string; name: string }; alsoFor?: { namespace?: string; name: string }[] }[]
      }[]
    }
    const keys = new Set<string>()
    for (const f of report.clusters[0].findings)
      for (const node of [f.node, ...(f.alsoFor ?? [])])
        keys.add(`${f.ruleId} ${node ? `${node.namespace}/${node.name}` : '-'}: ${f.summary.replace(/\d[\d.:TZ-]*/g, 'N')}`)
    return keys
  }
  const [before, ours, after] = [builds[1].bin, builds[0].bin, builds[1].bin].map(findings)
  const added = [...ours].filter((k) => !before.has(k) && !after.has(k))
  const lost = [...before].filter((k) => after.has(k) && !ours.has(k))
  console.log(
    `\nverdicts of doctor -A, this build against the base (run base, this, base): ${ours.size} finding(s) per node here, ${before.size} and ${after.size} in the base runs`,
  )
  for (const k of added) console.log(`  only this build: ${k}`)
  for (const k of lost) console.log(`  only the base:   ${k}`)
  if (added.length + lost.length === 0) console.log('  the same findings')
}

/**
 * Where a short command's time goes, this build's single executable and npm package: start-up (--version), the wait
 * until the first answer of the API server is in, until the last, and what follows it (rendering, exit), from
 * --debug's "at N ms" (time since the process started).
 */
function breakdown() {
  const lines = EVERYDAY.map((line) => line.ours)
  for (const [label, exe] of [
    ['single executable', builds[0].release],
    ['npm package', builds[0].bin],
  ] as const) {
    if (!exe) continue
    const version = Array.from({ length: runs }, () => wall([exe, '--version']))
    console.log(`\n${label}: where the time goes   (${load()}; --version ${median(version).toFixed(0)} ms)`)
    for (const args of lines) {
      const rows = Array.from({ length: runs }, () => {
        const start = process.hrtime.bigint()
        const result = spawnSync(exe, [...args, '--debug'], { env: envOf(exe), encoding: 'utf8' })
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        const at = [...result.stderr.matchAll(/, at (\d+) ms: /g)].map((m) => Number(m[1]))
        return { ms, first: Math.min(...at), last: Math.max(...at) }
      })
      const m = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick)).toFixed(0)
      console.log(
        `  ${args.join(' ').padEnd(40)} wall ${m((r) => r.ms)} ms: first answer in at ${m((r) => r.first)} ms, last at ${m((r) => r.last)} ms, ` +
          `then ${m((r) => r.ms - r.last)} ms to render and exit`,
      )
    }
  }
}

/** serve -A: how long its first diagnosis cycle takes (chainnode_run_duration_seconds), and from start to its first answer. */
async function serveFirstCycle() {
  const results = builds.map((build) => ({ label: build.label, cycle: [] as number[], wall: [] as number[] }))
  for (let i = 0; i < Math.max(1, Math.ceil(runs / 2)); i++) {
    for (let j = 0; j < builds.length; j++) {
      const k = (i + j) % builds.length
      const { cycleMs, wallMs } = await firstCycle(builds[k].bin)
      results[k].cycle.push(cycleMs)
      results[k].wall.push(wallMs)
    }
  }
  console.log(`\nserve -A: the first cycle on the scenario fleet   (${load()})`)
  for (const r of results) {
    const vsBase = r !== results[0] ? `, this build / base ${(median(results[0].cycle) / median(r.cycle)).toFixed(2)}` : ''
    console.log(
      `  ${r.label.padEnd(40)} ${fmt(median(r.cycle))}  [${r.cycle.map((t) => t.toFixed(0)).join(' ')}]  target ≤ 3000 ms: ${(median(r.cycle) / 3000).toFixed(2)} of it` +
        ` (start to the first report: ${median(r.wall).toFixed(0)} ms)${vsBase}`,
    )
  }
}

async function firstCycle(bin: string): Promise<{ cycleMs: number; wallMs: number }> {
  const start = Date.now()
  const child = spawn(bin, ['serve', '-A', '--interval', '300s', '--listen', '127.0.0.1:0'], { env: envOf(bin), stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${stderr.slice(-2000)}`)
      if (Date.now() - start > 120_000) throw new Error(`serve gave no first cycle within 120 s: ${stderr.slice(-2000)}`)
      const url = /serving (http:\/\/127\.0\.0\.1:\d+)\/metrics/.exec(stderr)?.[1]
      if (url) {
        const metrics = await fetch(`${url}/metrics`).then((r) => r.text())
        const seconds = /^chainnode_run_duration_seconds (\S+)$/m.exec(metrics)?.[1]
        if (seconds !== undefined) return { cycleMs: Number(seconds) * 1000, wallMs: Date.now() - start }
      }
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  } finally {
    child.kill('SIGTERM')
  }
}

/** pprof flame -o FILE.svg of the synthetic CPU profile (or --profile): the SVG written from nothing, per build. */
function flameSvg() {
  const file = values.profile ?? syntheticProfile(work)
  const peers = builds.map((build) => ({
    label: build.label,
    command: [build.bin, 'pprof', 'flame', file, '-o', path.join(work, 'flame.svg')],
    times: [] as number[],
  }))
  for (let i = 0; i < runs; i++) for (let j = 0; j < peers.length; j++) peers[(i + j) % peers.length].times.push(wall(peers[(i + j) % peers.length].command))
  console.log(`\npprof flame -o FILE.svg of a ${(statSync(file).size / 1e6).toFixed(1)} MB profile   (${load()})`)
  for (const peer of peers) {
    const ms = median(peer.times)
    const vsBase = peer !== peers[0] ? `, this build / base ${(median(peers[0].times) / ms).toFixed(2)}` : ''
    console.log(
      `  ${peer.label.padEnd(40)} ${fmt(ms)}  [${peer.times.map((t) => t.toFixed(0)).join(' ')}]  target ≤ 1000 ms: ${(ms / 1000).toFixed(2)} of it${vsBase}`,
    )
  }
}
