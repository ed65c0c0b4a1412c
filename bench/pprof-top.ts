// Our offline `pprof top` against `go tool pprof -top` on one large profile:
// alternate the two, report medians, peak memory and the ratio ours/go.
//
//   npx tsx bench/pprof-top.ts [--runs N] [--file PROFILE] [--cli] [--diff] [-- PPROF_FLAGS...]
//
// --diff measures what `--growth` and `pprof top NEW --base OLD` do, against
// `go tool pprof -top -diff_base OLD NEW`: a second synthetic profile (another
// seed, same size) is the base, or pass it after `--` as -diff_base=FILE.
//
// Without --file, test/profgen writes a deterministic synthetic CPU profile
// (400,000 samples, 4,000 functions, 12,000 locations, inlined frames,
// recursion; about 11 MB gzipped). Ours runs as a child `node` process on
// an esbuild bundle of bench/pprof-top-cli.ts, or with --cli through
// `node bin/run.js pprof top` (needs a current `npm run build`).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { build } from 'esbuild'
import { median, syntheticProfile } from './synthetic-profile.js'

const root = path.resolve(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const dash = argv.indexOf('--')
const pprofFlags = dash >= 0 ? argv.slice(dash + 1) : []
const own = dash >= 0 ? argv.slice(0, dash) : argv
const opt = (name: string): string | undefined => {
  const i = own.indexOf(name)
  return i >= 0 ? own[i + 1] : undefined
}
const runs = Number(opt('--runs') ?? 3)
const useCli = own.includes('--cli')
const diff = own.includes('--diff')
const work = mkdtempSync(path.join(tmpdir(), 'pprof-bench-'))
const hasGnuTime = existsSync('/usr/bin/time')

interface Cmd {
  name: string
  cmd: string
  args: string[]
  env?: NodeJS.ProcessEnv
}

interface Run {
  ms: number
  peakMB: number | undefined
  stdout: string
}

function run(c: Cmd): Run {
  const [cmd, args] = hasGnuTime ? ['/usr/bin/time', ['-f', '%M', c.cmd, ...c.args]] : [c.cmd, c.args]
  const start = process.hrtime.bigint()
  const r = spawnSync(cmd, args as string[], { encoding: 'utf8', maxBuffer: 256 << 20, env: { ...process.env, ...c.env } })
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (r.error) throw r.error
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr.slice(-2000)}`)
  const kb = hasGnuTime ? Number(r.stderr.trim().split('\n').pop()) : Number.NaN
  return { ms, peakMB: Number.isFinite(kb) ? kb / 1024 : undefined, stdout: r.stdout }
}

try {
  const file = opt('--file') ?? syntheticProfile(work)
  if (diff && !pprofFlags.some((f) => f.startsWith('-diff_base='))) pprofFlags.push(`-diff_base=${syntheticProfile(work, 7)}`)
  const size = statSync(file).size
  console.log(`profile: ${file} (${(size / 2 ** 20).toFixed(1)} MiB)`)

  let ours: Cmd
  if (useCli) {
    ours = {
      name: 'kubectl-chainnode pprof top',
      cmd: process.execPath,
      args: [path.join(root, 'bin', 'run.js'), 'pprof', 'top', file, '--top', '1000000', ...pprofFlags.map((f) => f.replace(/^-diff_base=/, '--base='))],
    }
  } else {
    const bundle = path.join(work, 'pprof-top-cli.mjs')
    await build({
      entryPoints: [path.join(root, 'bench', 'pprof-top-cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      outfile: bundle,
      logLevel: 'error',
    })
    ours = { name: 'ours (node, bundled)', cmd: process.execPath, args: [bundle, file, ...pprofFlags], env: { TZ: 'UTC' } }
  }
  const go: Cmd = { name: 'go tool pprof -top', cmd: 'go', args: ['tool', 'pprof', '-top', ...pprofFlags, file], env: { TZ: 'UTC' } }

  // Warm-up: builds go's pprof tool on first use and fills the file cache.
  const warmOurs = run(ours)
  const warmGo = run(go)
  if (!useCli) {
    const strip = (s: string) => s.replace(/^Time: .*\n/m, '')
    console.log(`outputs identical (Time: line aside): ${strip(warmOurs.stdout) === strip(warmGo.stdout) ? 'yes' : 'NO'}`)
  }

  const samples = new Map<string, Run[]>([
    [ours.name, []],
    [go.name, []],
  ])
  for (let i = 0; i < runs; i++) {
    // Alternate which goes first so drift on a shared machine hits both.
    const order = i % 2 === 0 ? [ours, go] : [go, ours]
    for (const c of order) {
      const r = run(c)
      samples.get(c.name)!.push(r)
      console.log(`  run ${i + 1} ${c.name.padEnd(28)} ${r.ms.toFixed(0).padStart(7)} ms${r.peakMB ? `  ${r.peakMB.toFixed(0)} MB peak` : ''}`)
    }
  }
  const summary = (c: Cmd) => {
    const rs = samples.get(c.name)!
    const peaks = rs.map((r) => r.peakMB).filter((x): x is number => x !== undefined)
    return { ms: median(rs.map((r) => r.ms)), peak: peaks.length ? median(peaks) : undefined }
  }
  const a = summary(ours)
  const b = summary(go)
  for (const [c, s] of [
    [ours, a],
    [go, b],
  ] as const) {
    console.log(`${c.name.padEnd(28)} median ${s.ms.toFixed(0).padStart(7)} ms${s.peak ? `  peak ${s.peak.toFixed(0)} MB` : ''}`)
  }
  console.log(`ratio ours/go: ${(a.ms / b.ms).toFixed(3)}  (${runs} runs each${pprofFlags.length ? `, flags ${pprofFlags.join(' ')}` : ''})`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
