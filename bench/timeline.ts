/**
 * timeline against doctor on the same nodes: what each reads and what each costs.
 *   npm run cluster:up -- --scenarios && npx tsx bench/timeline.ts --dir .cluster && npm run cluster:down
 * Without --dir (or with one holding no cluster) it starts and stops a throw-away cluster.
 * Runs are interleaved (timeline, doctor, doctor, timeline, ...: each goes first every other round) so load
 * on the machine hits both alike. Prints medians of wall time and of CPU time (user + system, read by the
 * run itself: bench/cpu-usage.cjs), request counts and ratios from this one run; never asserts.
 * --cli PATH measures another build (an earlier commit's bin/chainnode), with its own state folder.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { loadavg } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, dir: { type: 'string' }, cli: { type: 'string' } } })
const root = path.resolve(import.meta.dirname, '..')
const cli = path.resolve(values.cli ?? path.join(root, 'bin', 'chainnode'))

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
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const cpuPreload = path.join(import.meta.dirname, 'cpu-usage.cjs')
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')

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
