// Hostile files through the real CLI: time and peak memory of each, and whether reading grows
// linearly (the time ratio of a bomb twice as large should be near 2, not 4).
//
//   npx tsx bench/hostile-bundle.ts        (needs a current `npm run build`; writes a few GB of gzip input, kept small on disk)
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { bundleFiles, gzipOfParts, gzipOfZeros, tarEntry, writeBundleFolder } from '../test/helpers/hostile.js'

const root = path.resolve(import.meta.dirname, '..')
const cli = path.join(root, 'bin', 'chainnode')
const work = mkdtempSync(path.join(tmpdir(), 'hostile-bench-'))
const MiB = 1 << 20

function measure(args: string[], env: NodeJS.ProcessEnv = {}): { ms: number; peakMB: number; code: number | null; line: string } {
  const started = performance.now()
  const run = spawnSync('/usr/bin/time', ['-v', cli, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, encoding: 'utf8' })
  const ms = performance.now() - started
  const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1]
  const line = run.stderr.split('\n').find((l) => l.startsWith('error:')) ?? ''
  return { ms, peakMB: Math.round(Number(peak ?? 0) / 1024), code: run.status, line }
}

const header = (name: string, size: number) => tarEntry({ name, size }).subarray(0, 512)

async function main(): Promise<void> {
  if (!existsSync('/usr/bin/time')) throw new Error('needs GNU time at /usr/bin/time')
  console.log('# linear time: a header then N MiB of zeros, every limit but the size lifted')
  let previous: number | undefined
  for (const size of [32, 64, 128, 256]) {
    const file = path.join(work, `linear-${size}.tgz`)
    // A file the reader unpacks but never opens: what is timed is the unpacking alone (median of 3).
    await gzipOfZeros(file, size * MiB, header('top/other/blob.bin', size * MiB))
    const runs = [0, 1, 2].map(() =>
      measure(['doctor', '--bundle', file], { KUBECTL_CHAINNODE_MAX_RATIO: '1000000', KUBECTL_CHAINNODE_MAX_ENTRY_SIZE: '512MiB' }),
    )
    const ms = runs.map((r) => r.ms).sort((x, y) => x - y)[1]
    const peak = Math.max(...runs.map((r) => r.peakMB))
    console.log(
      `${size} MiB unpacked from ${statSync(file).size} bytes: ${ms.toFixed(0)} ms, ${peak} MB peak${previous ? `, time x${(ms / previous).toFixed(2)} for x2 input` : ''}`,
    )
    previous = ms
    rmSync(file)
  }

  console.log('\n# the cases of issue 16, default limits')
  const cases: [string, () => Promise<string>, (file: string) => string[]][] = [
    [
      '1 GiB of zeros, gzipped',
      async () => gzipOfZeros(path.join(work, 'zeros.tgz'), 1024 * MiB).then(() => path.join(work, 'zeros.tgz')),
      (f) => ['doctor', '--bundle', f],
    ],
    [
      '3 GiB in 30 files of 100 MiB, each under the file limit',
      async () =>
        gzipOfParts(path.join(work, 'ratio.tgz'), Array.from({ length: 30 }, (_, i) => [header(`top/logs/ns/p/c${i}.txt`, 100 * MiB), 100 * MiB]).flat()).then(
          () => path.join(work, 'ratio.tgz'),
        ),
      (f) => ['doctor', '--bundle', f],
    ],
    [
      'pprof top on 4 GiB of zeros, gzipped',
      async () => gzipOfZeros(path.join(work, 'zeros.pb.gz'), 4096 * MiB).then(() => path.join(work, 'zeros.pb.gz')),
      (f) => ['pprof', 'top', f],
    ],
  ]
  for (const [name, make, argv] of cases) {
    const file = await make()
    const result = measure(argv(file))
    console.log(`${name} (${statSync(file).size} bytes): exit ${result.code}, ${result.ms.toFixed(0)} ms, ${result.peakMB} MB peak: ${result.line}`)
    rmSync(file)
  }

  console.log('\n# an Event message of 25, 50 and 100 MB (issue 31): timeline keeps its first 4,096 characters')
  for (const size of [25, 50, 100]) {
    const files = bundleFiles()
    const events = JSON.parse(files['resources/ns/Event.json']) as { message?: string }[]
    events[0].message = 'x y '.repeat((size * 1_000_000) / 4)
    files['resources/ns/Event.json'] = JSON.stringify(events)
    const folder = writeBundleFolder(path.join(work, `event-${size}`), files)
    for (const command of ['timeline', 'doctor']) {
      const result = measure([command, '--bundle', folder, '-n', 'ns'])
      console.log(`${command}, ${size} MB message: exit ${result.code}, ${result.ms.toFixed(0)} ms, ${result.peakMB} MB peak`)
    }
    rmSync(folder, { recursive: true })
  }

  // Signals during long reads: bench/interrupt.ts.
  rmSync(work, { recursive: true, force: true })
}

await main()
