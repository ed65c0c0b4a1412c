// `pprof flame` against go tool pprof's own flame graph (`-http`, page /ui/flamegraph) on one profile:
// alternate the two, report medians of wall time and peak memory, and the ratio ours/go.
//
//   npx tsx bench/pprof-flame.ts [--runs N] [--file PROFILE]      (needs a current `npm run build`, and Go)
//
// Ours: the real CLI writing the page (`chainnode pprof flame FILE -o OUT.html`), peak RSS from GNU time.
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
import { tmpdir } from 'node:os'
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
const work = mkdtempSync(path.join(tmpdir(), 'pprof-flame-bench-'))

interface Run {
  ms: number
  peakMB: number
  bytes: number
}

function ours(file: string): Run {
  const out = path.join(work, 'flame.html')
  const start = process.hrtime.bigint()
  const r = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, path.join(root, 'bin', 'run.js'), 'pprof', 'flame', file, '-o', out], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.status !== 0) throw new Error(`pprof flame exited ${r.status}: ${r.stderr.slice(-2000)}`)
  return { ms, peakMB: Number(r.stderr.trim().split('\n').pop()) / 1024, bytes: statSync(out).size }
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
  const pprof = spawnSync('go', ['tool', '-n', 'pprof'], { encoding: 'utf8' }).stdout.trim()
  if (pprof === '') throw new Error('go tool -n pprof found no pprof (is Go installed?)')
  console.log(`profile: ${file} (${(statSync(file).size / 2 ** 20).toFixed(1)} MiB)`)

  // Warm-up: the file cache, and Node's code cache for the CLI.
  ours(file)
  await go(pprof, file)
  const results = { ours: [] as Run[], go: [] as Run[] }
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so drift on a shared machine hits both.
    for (const which of i % 2 === 0 ? (['ours', 'go'] as const) : (['go', 'ours'] as const)) {
      const r = which === 'ours' ? ours(file) : await go(pprof, file)
      results[which].push(r)
      console.log(
        `  run ${i + 1} ${which.padEnd(5)} ${r.ms.toFixed(0).padStart(7)} ms  ${r.peakMB.toFixed(0).padStart(5)} MB peak  page ${(r.bytes / 1024).toFixed(0)} KiB`,
      )
    }
  }
  const summary = (rs: Run[]) => ({ ms: median(rs.map((r) => r.ms)), peak: median(rs.map((r) => r.peakMB)) })
  const a = summary(results.ours)
  const b = summary(results.go)
  console.log(`kubectl-chainnode pprof flame         median ${a.ms.toFixed(0).padStart(7)} ms  peak ${a.peak.toFixed(0)} MB`)
  console.log(`go tool pprof -http /ui/flamegraph    median ${b.ms.toFixed(0).padStart(7)} ms  peak ${b.peak.toFixed(0)} MB`)
  console.log(`ratio ours/go: time ${(a.ms / b.ms).toFixed(3)}, peak memory ${(a.peak / b.peak).toFixed(3)}  (${runs} runs each)`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
