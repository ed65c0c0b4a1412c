// Peak memory of `pprof top` on the largest profile the limits allow, through the real CLI, with GNU time:
// a raw profile.proto just under KUBECTL_CHAINNODE_MAX_PROFILE_SIZE (256 MiB) whose samples decode to just under
// KUBECTL_CHAINNODE_MAX_PROFILE_DECODED (512 MiB), padded to the size limit with a field the decoder skips; then
// the same size with more samples than the decoded limit allows, which is refused in one line before decoding.
//
//   npx tsx bench/pprof-top-memory.ts [MiB, default 255]     (needs a current `npm run build`)
import { spawnSync } from 'node:child_process'
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { profileCensus } from '../src/pprof/proto-census.js'
import { LIMIT_SPECS } from '../src/util/limits.js'
import { writeLargeProfile } from '../test/helpers/hostile.js'

const cli = path.resolve(import.meta.dirname, '..', 'bin', 'chainnode')
const work = mkdtempSync(path.join(tmpdir(), 'pprof-memory-'))
const bytes = (Number(process.argv[2]) || 255) * 1024 * 1024
const decodedLimit = LIMIT_SPECS.profileDecodedBytes.fallback

const varint = (value: number): number[] => {
  const out: number[] = []
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80)
  return [...out, value]
}

/** A field the decoder skips (number 20, length-delimited) that brings the file to `size` bytes. */
function padTo(file: string, size: number): void {
  const room = size - statSync(file).size - 8
  if (room > 0) appendFileSync(file, Buffer.concat([Buffer.from([0xa2, 0x01, ...varint(room)]), Buffer.alloc(room)]))
}

function measure(label: string, file: string): void {
  const decoded = profileCensus(readFileSync(file)).decodedBytes
  const started = performance.now()
  const run = spawnSync('/usr/bin/time', ['-v', cli, 'pprof', 'top', file], { env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8' })
  const ms = performance.now() - started
  const peak = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(run.stderr)?.[1] ?? 0)
  const error = run.stderr.split('\n').find((line) => line.startsWith('error:') || /allocation failed|heap out of memory/i.test(line)) ?? ''
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MiB`
  console.log(
    `${label}: ${mib(statSync(file).size)} on disk, decodes to ${mib(decoded)}: exit ${run.status}, ${ms.toFixed(0)} ms, peak ${(peak / 1024).toFixed(0)} MB ${error}`,
  )
}

try {
  const over = path.join(work, 'over.pb')
  writeLargeProfile(over, bytes)
  const ratio = profileCensus(readFileSync(over)).decodedBytes / statSync(over).size
  const largest = path.join(work, 'largest.pb')
  writeLargeProfile(largest, Math.min(bytes, Math.floor((decodedLimit / ratio) * 0.995)))
  padTo(largest, bytes)
  measure('largest allowed', largest)
  measure('over the decoded limit', over)
} finally {
  rmSync(work, { recursive: true, force: true })
}
