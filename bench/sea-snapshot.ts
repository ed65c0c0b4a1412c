/**
 * Would the linux-x64 executable start faster from a V8 startup snapshot (release/linux-x64-snapshot, built
 * beside it by scripts/release.mjs) than as shipped, with V8's code cache and one small bundle per command?
 *   npm run release && npx tsx bench/sea-snapshot.ts [--runs 15] [--dir .cluster]
 * Alternates the two on the same command lines; prints medians of wall and CPU time and their ratios; never asserts.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, dir: { type: 'string', default: '.cluster' } } })
const root = path.resolve(import.meta.dirname, '..')
const builds = {
  snapshot: path.join(root, 'release', 'linux-x64-snapshot', 'kubectl-chainnode'),
  'code cache': path.join(root, 'release', 'linux-x64', 'kubectl-chainnode'),
}
for (const exe of Object.values(builds)) if (!existsSync(exe)) throw new Error(`${exe} is missing: run npm run release first`)

const cluster = await benchCluster(values.dir)
const timing = path.join(tmpdir(), `chainnode-sea-snapshot-time-${process.pid}`)
/** Wall time from here, CPU time (user + system) from GNU time. */
const run = (command: string[]) => {
  const start = process.hrtime.bigint()
  const result = spawnSync('/usr/bin/time', ['-o', timing, '-f', '%U %S', ...command], { env: cluster.env, stdio: 'ignore' })
  if (result.error) throw result.error
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  const [user, system] = readFileSync(timing, 'utf8').trim().split('\n').pop()!.split(' ').map(Number)
  return { wall, cpu: (user + system) * 1000 }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const LINES = [
  ['doctor', '--bundle', path.join(root, 'examples', 'bundles', 'healthy.tgz')],
  ['doctor', 'node-0', '-n', 'sc-healthy-chain'],
  ['status', '--all', '-n', 'sc-healthy-chain'],
  ['events', 'node-0', '-n', 'sc-healthy-chain'],
  ['--version'],
]
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`)
for (const line of LINES) {
  const times = Object.fromEntries(Object.keys(builds).map((name) => [name, [] as { wall: number; cpu: number }[]]))
  for (const exe of Object.values(builds)) run([exe, ...line])
  for (let i = 0; i < Number(values.runs); i++) for (const [name, exe] of Object.entries(builds)) times[name].push(run([exe, ...line]))
  const [a, b] = Object.values(times).map((ts) => ({ wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) }))
  console.log(
    `${line.join(' ').replace(`${root}/`, '').padEnd(48)} snapshot ${a.wall.toFixed(0)} ms (cpu ${a.cpu.toFixed(0)})   code cache ${b.wall.toFixed(0)} ms (cpu ${b.cpu.toFixed(0)})   ratio ${(a.wall / b.wall).toFixed(2)} (cpu ${(a.cpu / b.cpu).toFixed(2)})`,
  )
}
rmSync(timing, { force: true })
await cluster.stop()
