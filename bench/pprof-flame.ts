// `pprof flame` against go tool pprof's own flame graph (`-http`, page /ui/flamegraph) on one profile:
// alternate the two, report medians of wall time and peak memory, and the ratio ours/go.
//
//   npx tsx bench/pprof-flame.ts [--runs N] [--file PROFILE] [--format svg|html] [--base DIR] [--no-go]
//   (needs a current `npm run build`, and Go; --base: the built checkout of another commit, run in turn with ours)
//
// Ours: the real CLI writing the picture (`chainnode pprof flame FILE -o OUT.svg`, issue 45's target: at most 1 s on
// the synthetic profile) or with --format html the page, peak RSS from GNU time.
// Go: the pprof tool's binary (`go tool -n pprof`) serving -http on a free local port with -no_browser, timed
// from its start to the end of the flame graph page's body (load, build, render, send), peak RSS read from
// /proc/PID/status (VmHWM) before it is stopped. Both start from nothing: process start, reading the file,
// the call tree and the page.
//
// Without --file, test/profgen writes the synthetic CPU profile bench/pprof-top.ts uses (400,000 samples,
// 4,000 functions, about 11 MB gzipped); --file test/fixtures/pprof/synth-medium.pb.gz is the largest profile
// the tests read.
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from '../test/helpers/prometheus.js'
import { median, syntheticProfile } from './synthetic-profile.js'

const root = path.resolve(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const opt = (name: string): string | undefined => {
  const i = argv.indexOf(name)
  return i >= 0 ? argv[i + 1] : undefined
}
const runs = Number(opt('--runs') ?? 3)
/** Another build of the CLI (a checkout of an earlier commit, built), run in turn with ours: the change measured in one run. */
const base = opt('--base')
/** Leave go tool pprof out (it takes tens of seconds and gigabytes on the synthetic profile, loading the machine for the others). */
const withGo = !argv.includes('--no-go')
const format = opt('--format') ?? 'svg'
if (format !== 'svg' && format !== 'html') throw new Error(`--format ${format}: svg or html`)
const work = mkdtempSync(path.join(tmpdir(), 'pprof-flame-bench-'))

interface Run {
  ms: number
  /** User and system CPU time (ours only: go's server is timed to its answer, not its exit). */
  cpuMs?: number
  peakMB: number
  bytes: number
}

function ours(file: string, build = root): Run {
  const out = path.join(work, `flame.${format}`)
  const start = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, path.join(build, 'bin', 'run.js'), 'pprof', 'flame', file, '-o', out], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0) throw new Error(`pprof flame exited ${r.status}: ${r.stderr.slice(-2000)}`)
  // The last line of stderr is GNU time's: peak RSS in kB, user and system seconds.
  const [kb, user, system] = r.stderr.trim().split('\n').pop()!.split(' ').map(Number)
  return { ms, cpuMs: (user! + system!) * 1000, peakMB: kb! / 1024, bytes: statSync(out).size }
}

async function go(pprof: string, file: string): Promise<Run> {
  const port = await freePort()
  const start = process.hrtime.bigint()
  const child = spawn(pprof, ['-no_browser', `-http=127.0.0.1:${port}`, file], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.on('data', (d) => (stderr += d))
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`go tool pprof exited ${child.exitCode}: ${stderr.slice(-2000)}`)
      try {
        const response = await fetch(`http://127.0.0.1:${port}/ui/flamegraph`)
        const body = await response.text()
        if (!response.ok) throw new Error(`go tool pprof answered ${response.status}: ${body.slice(0, 500)}`)
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? Number.NaN)
        return { ms, peakMB: hwm / 1024, bytes: Buffer.byteLength(body) }
      } catch (error) {
        if (error instanceof TypeError)
          await new Promise((r) => setTimeout(r, 5)) // not listening yet
        else throw error
      }
    }
  } finally {
    child.kill('SIGTERM')
  }
}

try {
  const file = opt('--file') ?? syntheticProfile(work)
  const pprof = withGo ? spawnSync('go', ['tool', '-n', 'pprof'], { encoding: 'utf8' }).stdout.trim() : ''
  if (withGo && pprof === '') throw new Error('go tool -n pprof found no pprof (is Go installed?)')
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')
  console.log(`profile: ${file} (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB), ours writes ${format}; load average ${load()}`)

  // Warm-up: the file cache, and Node's code cache for the CLI.
  ours(file)
  if (base !== undefined) ours(file, base)
  if (withGo) await go(pprof, file)
  const results = { ours: [] as Run[], base: [] as Run[], go: [] as Run[] }
  const order = (['ours', 'base', 'go'] as const).filter((which) => (which !== 'base' || base !== undefined) && (which !== 'go' || withGo))
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so drift on a shared machine hits both.
    for (const which of i % 2 === 0 ? order : [...order].reverse()) {
      const r = which === 'go' ? await go(pprof, file) : ours(file, which === 'base' ? base : root)
      results[which].push(r)
      console.log(
        `  run ${i + 1} ${which.padEnd(5)} ${r.ms.toFixed(0).padStart(7)} ms${r.cpuMs === undefined ? '' : ` (CPU ${r.cpuMs.toFixed(0).padStart(5)} ms)`}  ${r.peakMB.toFixed(0).padStart(5)} MB peak  page ${(r.bytes / 1024).toFixed(0)} KiB`,
      )
    }
  }
  const summary = (rs: Run[]) => ({ ms: median(rs.map((r) => r.ms)), cpu: median(rs.map((r) => r.cpuMs ?? Number.NaN)), peak: median(rs.map((r) => r.peakMB)) })
  const a = summary(results.ours)
  console.log(`load average at the end ${load()}`)
  // On a shared machine the wall time follows the load; the CPU time less so (it still grows with contention).
  console.log(
    `kubectl-chainnode pprof flame (${format.padEnd(4)})  median ${a.ms.toFixed(0).padStart(7)} ms  CPU ${a.cpu.toFixed(0)} ms  peak ${a.peak.toFixed(0)} MB`,
  )
  if (base !== undefined) {
    const c = summary(results.base)
    console.log(
      `the build in ${base}: median ${c.ms.toFixed(0).padStart(7)} ms  CPU ${c.cpu.toFixed(0)} ms  peak ${c.peak.toFixed(0)} MB  (ours/it: time ${(a.ms / c.ms).toFixed(3)}, CPU ${(a.cpu / c.cpu).toFixed(3)})`,
    )
  }
  if (withGo) {
    const b = summary(results.go)
    console.log(`go tool pprof -http /ui/flamegraph    median ${b.ms.toFixed(0).padStart(7)} ms  peak ${b.peak.toFixed(0)} MB`)
    console.log(`ratio ours/go: time ${(a.ms / b.ms).toFixed(3)}, peak memory ${(a.peak / b.peak).toFixed(3)}  (${runs} runs each)`)
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
