// Peak memory of `pprof top` on the largest profile the limits allow (a raw profile.proto just under the
// 256 MiB default of KUBECTL_CHAINNODE_MAX_PROFILE_SIZE), through the real CLI, with GNU time.
//
//   npx tsx bench/pprof-top-memory.ts [MiB, default 255]     (needs a current `npm run build`)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { writeLargeProfile } from '../test/helpers/hostile.js'

const cli = path.resolve(import.meta.dirname, '..', 'bin', 'chainnode')
const work = mkdtempSync(path.join(tmpdir(), 'pprof-memory-'))
const mib = Number(process.argv[2]) || 255
const file = path.join(work, 'large.pb')
try {
  writeLargeProfile(file, mib * 1024 * 1024)
  const started = performance.now()
  const run = spawnSync('/usr/bin/time', ['-v', cli, 'pprof', 'top', file], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' })
  const ms = performance.now() - started
  const peak = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? 0)
  const error = run.stderr.split('\n').find((line) => line.startsWith('error:') || /allocation failed|heap out of memory/i.test(line)) ?? ''
  console.log(
    `${(statSync(file).size / 1024 / 1024).toFixed(0)} MiB profile: exit ${run.status}, ${ms.toFixed(0)} ms, peak ${(peak / 1024).toFixed(0)} MB ${error}`,
  )
} finally {
  rmSync(work, { recursive: true, force: true })
}
