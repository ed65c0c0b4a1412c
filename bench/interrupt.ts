// Ctrl-C and SIGTERM in the middle of long synchronous work, through the real CLI: for each phase, the time
// from the signal to the end of the process (median of --runs, both signals alternating), next to how long
// the run would have gone on without the signal (from entering the phase to its end).
//
//   npx tsx bench/interrupt.ts [--runs N]        (needs a current `npm run build`; writes ~400 MB of input)
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { bundleFiles, gzipOfZeros, manyEvents, tarEntry, tgz, writeLargeProfile, writeBundleFolder } from '../test/helpers/hostile.js'

const root = path.resolve(import.meta.dirname, '..')
const cli = path.join(root, 'bin', 'chainnode')
const work = mkdtempSync(path.join(tmpdir(), 'interrupt-bench-'))
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 3)
const MiB = 1 << 20

interface Phase {
  name: string
  argv: string[]
  /** The --debug line after which the process is inside the phase. */
  entered: RegExp
}

async function inputs(): Promise<Phase[]> {
  const unpack = path.join(work, 'unpack.tgz')
  await gzipOfZeros(unpack, 127 * MiB, tarEntry({ name: 'top/resources/ns/Pod.json', size: 127 * MiB }).subarray(0, 512))
  const entry = path.join(work, 'entry.tgz')
  const entryFiles = { ...bundleFiles(), 'resources/ns/Event.json': manyEvents(900_000) }
  writeFileSync(entry, tgz(Object.entries(entryFiles).map(([name, content]) => ({ name: `top/${name}`, content }))))
  const profile = path.join(work, 'big.pb')
  writeLargeProfile(profile, 200 * MiB)
  const events = path.join(work, 'events')
  writeBundleFolder(events, { ...bundleFiles(), 'resources/ns/Event.json': manyEvents(300_000) })
  return [
    { name: 'unpacking 127 MiB (.tgz)', argv: ['doctor', '--bundle', unpack], entered: /bundle: unpacking/ },
    { name: 'JSON.parse of a 120 MiB entry (.tgz)', argv: ['doctor', '--bundle', entry], entered: /bundle: parsing resources\/ns\/Event\.json/ },
    { name: 'decoding a 200 MiB profile (pprof top)', argv: ['pprof', 'top', profile], entered: /pprof: decoding/ },
    { name: 'rules and renderers, 300,000 Events', argv: ['doctor', '--bundle', events, '--fail-on', 'never'], entered: /bundle: read \d+ objects/ },
  ]
}

/** ms from entering the phase to the end of the process, signalled on entry or not; and what it left in its TMPDIR. */
function run(phase: Phase, signal: NodeJS.Signals | undefined): Promise<{ ms: number; ended: string; left: number }> {
  const tmp = mkdtempSync(path.join(work, 'tmp-'))
  const child = spawn(cli, [...phase.argv, '--debug'], {
    env: { ...process.env, NO_COLOR: '1', KUBECONFIG: '', TMPDIR: tmp, KUBECTL_CHAINNODE_MAX_RATIO: '1000000' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  let entered = 0
  child.stderr.on('data', (d) => {
    stderr += d
    if (!entered && phase.entered.test(stderr)) {
      entered = performance.now()
      if (signal) child.kill(signal)
    }
  })
  return new Promise((resolve) =>
    child.on('exit', (code, killedBy) => {
      const ms = performance.now() - entered
      const left = readdirSync(tmp).length
      rmSync(tmp, { recursive: true, force: true })
      resolve({ ms: entered ? ms : NaN, ended: killedBy ?? `exit ${code}`, left })
    }),
  )
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

async function main(): Promise<void> {
  console.log(`# ${runs} runs per signal; load average before: ${load()}`)
  for (const phase of await inputs()) {
    const untouched = await run(phase, undefined)
    const times: Record<string, number[]> = { SIGINT: [], SIGTERM: [] }
    const endings = new Set<string>()
    let left = 0
    for (let i = 0; i < runs; i++)
      for (const signal of ['SIGINT', 'SIGTERM'] as const) {
        const result = await run(phase, signal)
        times[signal].push(result.ms)
        endings.add(result.ended)
        left += result.left
      }
    console.log(
      `${phase.name}: signal to end ${median(times.SIGINT).toFixed(0)} ms (SIGINT), ${median(times.SIGTERM).toFixed(0)} ms (SIGTERM); ` +
        `without a signal it goes on ${untouched.ms.toFixed(0)} ms (${untouched.ended}); ended by ${[...endings].join(', ')}; left in TMPDIR: ${left}; load ${load()}`,
    )
  }
  rmSync(work, { recursive: true, force: true })
}

await main()
