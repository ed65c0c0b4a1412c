/**
 * timeline against doctor on the same nodes: what each reads and what each costs.
 *   npm run cluster:up -- --scenarios && npx tsx bench/timeline.ts --dir .cluster && npm run cluster:down
 * Without --dir (or with one holding no cluster) it starts and stops a throw-away cluster.
 * Runs are interleaved (timeline, doctor, doctor, timeline, ...: each goes first every other round) so load
 * on the machine hits both alike. Prints medians of wall time and of CPU time (user + system, read by the
 * run itself: bench/cpu-usage.cjs), request counts and ratios from this one run; never asserts.
 * --cli PATH measures another build (an earlier commit's bin/chainnode), with its own state folder.
 *
 * --events N: no cluster; the healthy example bundle with N Events about one node (its ChainNode and its Pod, each
 * message its own numbers, as a noisy node writes them), and timeline --all against doctor --all on it, interleaved:
 * median wall and CPU time and the largest peak memory (GNU time) of each, and their ratios (issue 44: 200,000 Events).
 *   npx tsx bench/timeline.ts --events 200000 [--runs 3] [--cli PATH] [--before PATH]
 * --before PATH (with --events): an earlier build measured in the same run, its four runs interleaved with this one's,
 * so a before/after comparison sees the same load. Each build's ratios are also given per round (that round's timeline
 * over its doctor, median over the rounds): on a machine whose load moves, steadier than the ratio of the medians.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'
import { readBundle, writeBundle } from '../src/snapshot/bundle.js'
import { addNodeEvents } from '../test/helpers/node-events.js'

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '7' }, dir: { type: 'string' }, cli: { type: 'string' }, events: { type: 'string' }, before: { type: 'string' } },
})
const root = path.resolve(import.meta.dirname, '..')
const cli = path.resolve(values.cli ?? path.join(root, 'bin', 'chainnode'))

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const cpuPreload = path.join(import.meta.dirname, 'cpu-usage.cjs')
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')

if (values.events) {
  await bundleBench(Number(values.events), Number(values.runs))
  process.exit(0)
}

/**
 * The example bundle of a healthy node (examples/bundles/healthy.tgz: doctor finds nothing, so it builds no
 * lead-up) with `count` more Events about fullnode-0's ChainNode and Pod, written as a folder.
 */
async function eventsBundle(count: number, dir: string): Promise<string> {
  const snapshot = addNodeEvents(await readBundle(path.join(root, 'examples', 'bundles', 'healthy.tgz')), 'sc-healthy', 'fullnode-0', count)
  await writeBundle(dir, snapshot, true)
  return dir
}

/** timeline --all and doctor --all on a bundle of `count` Events about one node: wall, CPU and peak memory, interleaved. */
async function bundleBench(count: number, runs: number): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'timeline-bench-'))
  try {
    const bundle = await eventsBundle(count, path.join(work, 'bundle'))
    const measure = (build: string, command: string) => {
      const start = process.hrtime.bigint()
      const result = spawnSync(
        '/usr/bin/time',
        ['-v', build, command, '--all', '-n', 'sc-healthy', '--bundle', bundle, ...(command === 'doctor' ? ['--fail-on', 'never'] : [])],
        {
          env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${cpuPreload}`.trim() },
          encoding: 'utf8',
          maxBuffer: 1 << 28,
        },
      )
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      const lines = result.stderr.split('\n')
      const cpuMs = Number(lines.find((l) => l.startsWith('bench-cpu-us: '))?.slice('bench-cpu-us: '.length)) / 1000
      const peakMB = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(result.stderr)?.[1] ?? 0) / 1024
      if (result.status !== 0 && result.status !== 3) throw new Error(`${command} exited ${result.status}: ${lines.find((l) => l.startsWith('error')) ?? ''}`)
      return { ms, cpuMs, peakMB }
    }
    const builds = values.before ? [path.resolve(values.before), cli] : [cli]
    console.log(`${builds.join(' (before), ')}; ${count} Events about one node; load average at the start: ${load()}`)
    const labels = builds.flatMap((build) =>
      ['timeline', 'doctor'].map((command) => ({ build, command, label: `${command}${builds.length > 1 ? (build === cli ? ' after' : ' before') : ''}` })),
    )
    const seen: Record<string, { ms: number[]; cpuMs: number[]; peakMB: number[] }> = Object.fromEntries(
      labels.map(({ label }) => [label, { ms: [], cpuMs: [], peakMB: [] }]),
    )
    for (let i = 0; i < runs; i++)
      // Each goes first in turn.
      for (let k = 0; k < labels.length; k++) {
        const { build, command, label } = labels[(k + i) % labels.length]
        const { ms, cpuMs, peakMB } = measure(build, command)
        seen[label].ms.push(ms)
        seen[label].cpuMs.push(cpuMs)
        seen[label].peakMB.push(peakMB)
      }
    const wall = (label: string) => median(seen[label].ms)
    const cpu = (label: string) => median(seen[label].cpuMs)
    const peak = (label: string) => Math.max(...seen[label].peakMB)
    for (const { label } of labels)
      console.log(`${label}: ${wall(label).toFixed(0)} ms wall, ${cpu(label).toFixed(0)} ms CPU, ${peak(label).toFixed(0)} MB peak`)
    for (const suffix of builds.length > 1 ? [' before', ' after'] : ['']) {
      const ratio = (pick: (label: string) => number) => (pick(`timeline${suffix}`) / pick(`doctor${suffix}`)).toFixed(2)
      // Each round's timeline over the same round's doctor: steadier than the medians' ratio when the load moves.
      const paired = (of: 'ms' | 'cpuMs' | 'peakMB') => median(seen[`timeline${suffix}`][of].map((mine, i) => mine / seen[`doctor${suffix}`][of][i])).toFixed(2)
      console.log(
        `timeline/doctor${suffix}: wall ${ratio(wall)}, CPU ${ratio(cpu)}, peak memory ${ratio(peak)} (target 1.00 or less; ${runs} runs each, interleaved); ` +
          `median of each round's ratio: wall ${paired('ms')}, CPU ${paired('cpuMs')}, peak memory ${paired('peakMB')}`,
      )
    }
    console.log(`load average at the end: ${load()}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

const { dir, ctx, env, stop } = await benchCluster(values.dir)
// Another build keeps its own code cache and history: each build deletes the other's caches.
if (values.cli) env.KUBECTL_CHAINNODE_STATE_DIR = path.join(dir, `bench-state-${createHash('sha256').update(cli).digest('hex').slice(0, 8)}`)

/** A healthy node, a real CometBFT node (chain probe), a restart by config, a noisy not-syncing node. */
const NODES = [
  ['sc-healthy', 'fullnode-0'],
  ['sc-healthy-chain', 'node-0'],
  ['sc-config-change-restart', 'cfg-0'],
  ['sc-not-syncing', 'stuck-0'],
]
function run(args: string[]): { ms: number; cpuMs: number; reads: string[] } {
  const start = process.hrtime.bigint()
  const result = spawnSync(cli, [...args, '--debug'], {
    env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --require ${cpuPreload}`.trim() },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const lines = result.stderr.split('\n')
  const cpuMs = Number(lines.find((l) => l.startsWith('bench-cpu-us: '))?.slice('bench-cpu-us: '.length)) / 1000
  const reads = lines.filter((l) => l.startsWith('debug: GET ')).map((l) => l.slice('debug: GET '.length))
  return { ms, cpuMs, reads }
}

console.log(`${cli}; load average at the start: ${load()}`)
await refreshLiveness(ctx)
const runs = Number(values.runs)
const ratios: number[] = []
for (const [ns, name] of NODES) {
  // Both as a user runs them (active probes on), and both with --no-probe (what the cluster records).
  const pairs: [string, string[], string, string[]][] = [
    ['timeline', ['timeline', name, '-n', ns], 'doctor', ['doctor', name, '-n', ns, '--fail-on', 'never']],
    ['timeline --no-probe', ['timeline', name, '-n', ns, '--no-probe'], 'doctor --no-probe', ['doctor', name, '-n', ns, '--no-probe', '--fail-on', 'never']],
  ]
  const labels = pairs.flatMap(([a, , b]) => [a, b])
  const times: Record<string, number[]> = Object.fromEntries(labels.map((label) => [label, []]))
  const cpu: Record<string, number[]> = Object.fromEntries(labels.map((label) => [label, []]))
  const reads: Record<string, string[]> = {}
  for (const [a, argsA, b, argsB] of pairs) [reads[a], reads[b]] = [run(argsA).reads, run(argsB).reads] // warm-up, and what each reads
  for (let i = 0; i < runs; i++) {
    await refreshLiveness(ctx)
    for (const [a, argsA, b, argsB] of pairs) {
      const order: [string, string[]][] = [
        [a, argsA],
        [b, argsB],
      ]
      for (const [label, args] of i % 2 ? order.reverse() : order) {
        const { ms, cpuMs } = run(args)
        times[label].push(ms)
        cpu[label].push(cpuMs)
      }
    }
  }
  const m = (label: string) => median(times[label])
  const c = (label: string) => median(cpu[label])
  const extra = (mine: string, theirs: string) => reads[mine].filter((r) => !new Set(reads[theirs]).has(r))
  const ratio = m('timeline') / m('doctor')
  ratios.push(ratio)
  const ms = (x: number) => `${x.toFixed(0)} ms`
  console.log(
    `${ns}/${name}: timeline ${ms(m('timeline'))}, doctor ${ms(m('doctor'))}, ratio ${ratio.toFixed(2)} (target 1.00 or less); ` +
      `--no-probe: timeline ${ms(m('timeline --no-probe'))}, doctor ${ms(m('doctor --no-probe'))}, ratio ${(m('timeline --no-probe') / m('doctor --no-probe')).toFixed(2)}; ` +
      `CPU timeline/doctor ${ms(c('timeline'))}/${ms(c('doctor'))}, ratio ${(c('timeline') / c('doctor')).toFixed(2)}, ` +
      `--no-probe ${ms(c('timeline --no-probe'))}/${ms(c('doctor --no-probe'))}, ratio ${(c('timeline --no-probe') / c('doctor --no-probe')).toFixed(2)}; ` +
      `API reads timeline/doctor ${reads.timeline.length}/${reads.doctor.length}, read by timeline only: ${extra('timeline', 'doctor').join(', ') || 'none'}`,
  )
}
console.log(`load average at the end: ${load()}`)
console.log(`median ratio timeline/doctor over ${NODES.length} nodes: ${median(ratios).toFixed(2)} (${runs} runs each, interleaved)`)
await stop()
