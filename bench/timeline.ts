/**
 * timeline against doctor on the same nodes: what each reads and what each costs.
 *   npm run cluster:up -- --scenarios && npx tsx bench/timeline.ts --dir .cluster && npm run cluster:down
 * Without --dir (or with one holding no cluster) it starts and stops a throw-away cluster.
 * Runs are interleaved (timeline, doctor, timeline, ...) so load on the machine hits both alike.
 * Prints medians, request counts and ratios from this one run; never asserts.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, dir: { type: 'string' } } })
const root = path.resolve(import.meta.dirname, '..')
const cli = path.join(root, 'bin', 'chainnode')

const { ctx, env, stop } = await benchCluster(values.dir)

/** A healthy node, a real CometBFT node (chain probe), a restart by config, a noisy not-syncing node. */
const NODES = [
  ['sc-healthy', 'fullnode-0'],
  ['sc-healthy-chain', 'node-0'],
  ['sc-config-change-restart', 'cfg-0'],
  ['sc-not-syncing', 'stuck-0'],
]
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

/** CPU time (user + system, ms) of this process's waited-for children, from /proc: less sensitive to load than wall time. */
function childCpuMs(): number {
  // Fields 16 and 17 of /proc/self/stat (cutime, cstime), in clock ticks of 10 ms; the name field may hold spaces.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')
  return (Number(fields[13]) + Number(fields[14])) * 10
}

function run(args: string[]): { ms: number; cpuMs: number; reads: string[] } {
  const start = process.hrtime.bigint()
  const cpuBefore = childCpuMs()
  const result = spawnSync(cli, [...args, '--debug'], { env, encoding: 'utf8', maxBuffer: 1 << 28 })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  const cpuMs = childCpuMs() - cpuBefore
  const reads = result.stderr
    .split('\n')
    .filter((l) => l.startsWith('debug: GET '))
    .map((l) => l.slice('debug: GET '.length))
  return { ms, cpuMs, reads }
}

console.log(
  `load average at the start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
)
await refreshLiveness(ctx)
const runs = Number(values.runs)
const ratios: number[] = []
for (const [ns, name] of NODES) {
  // Both as a user runs them (active probes on), and both with --no-probe (what the cluster records).
  const commands: Record<string, string[]> = {
    timeline: ['timeline', name, '-n', ns],
    doctor: ['doctor', name, '-n', ns, '--fail-on', 'never'],
    'timeline --no-probe': ['timeline', name, '-n', ns, '--no-probe'],
    'doctor --no-probe': ['doctor', name, '-n', ns, '--no-probe', '--fail-on', 'never'],
  }
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((label) => [label, []]))
  const cpu: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((label) => [label, []]))
  const reads: Record<string, string[]> = {}
  for (const [label, args] of Object.entries(commands)) reads[label] = run(args).reads // warm-up, and what each reads
  for (let i = 0; i < runs; i++) {
    await refreshLiveness(ctx)
    for (const [label, args] of Object.entries(commands)) {
      const { ms, cpuMs } = run(args)
      times[label].push(ms)
      cpu[label].push(cpuMs)
    }
  }
  const m = (label: string) => median(times[label])
  // Mean, not median: each reading is a whole number of 10 ms clock ticks.
  const c = (label: string) => cpu[label].reduce((sum, x) => sum + x, 0) / runs
  const extra = (mine: string, theirs: string) => reads[mine].filter((r) => !new Set(reads[theirs]).has(r))
  const ratio = m('timeline') / m('doctor')
  ratios.push(ratio)
  console.log(
    `${ns}/${name}: timeline ${m('timeline').toFixed(0)} ms, doctor ${m('doctor').toFixed(0)} ms, ratio ${ratio.toFixed(2)} (target 1.00 or less); ` +
      `--no-probe: timeline ${m('timeline --no-probe').toFixed(0)} ms, doctor ${m('doctor --no-probe').toFixed(0)} ms, ratio ${(m('timeline --no-probe') / m('doctor --no-probe')).toFixed(2)}; ` +
      `CPU (user+sys, mean) timeline/doctor ${c('timeline').toFixed(0)}/${c('doctor').toFixed(0)} ms, ratio ${(c('timeline') / c('doctor')).toFixed(2)}, ` +
      `--no-probe ${c('timeline --no-probe').toFixed(0)}/${c('doctor --no-probe').toFixed(0)} ms, ratio ${(c('timeline --no-probe') / c('doctor --no-probe')).toFixed(2)}; ` +
      `API reads timeline/doctor ${reads.timeline.length}/${reads.doctor.length}, read by timeline only: ${extra('timeline', 'doctor').join(', ') || 'none'}`,
  )
}
console.log(
  `load average at the end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
)
console.log(`median ratio timeline/doctor over ${NODES.length} nodes: ${median(ratios).toFixed(2)} (${runs} runs each, interleaved)`)
await stop()
