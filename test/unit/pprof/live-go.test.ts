import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeProfile, ProfileFormatError } from '../../../src/pprof/decode.js'
import { renderTop } from '../../../src/pprof/format.js'
import { topTable } from '../../../src/pprof/top.js'
import { canonicalTop, FIXTURES, manifest, optionsFromArgs, PROFGEN } from './helpers.js'

// Compares with the real `go tool pprof` when Go is installed, on the
// committed fixtures and on profiles generated now. The first
// `go tool pprof` call on a machine builds the tool (10-30 s).
const goMissing = spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0
const optedOut = process.env.PPROF_LIVE === '0'
const reason = goMissing ? 'skipped: no `go` on PATH' : optedOut ? 'skipped: PPROF_LIVE=0' : 'needs Go'
const SLOW = 300_000

function goTop(file: string, args: readonly string[]): string {
  return execFileSync('go', ['tool', 'pprof', '-top', ...args, file], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 << 20,
  })
}

function ourTop(file: string, args: readonly string[]): string {
  return renderTop(topTable(decodeProfile(readFileSync(file)), optionsFromArgs(args)), { timeZone: 'UTC' })
}

describe.skipIf(goMissing || optedOut)(`live go tool pprof -top (${reason})`, () => {
  describe('on the committed fixtures', () => {
    it.each(manifest().cases.map((c) => [`${c.profile} ${c.args.join(' ') || '(defaults)'}`, c] as const))(
      '%s',
      (_, c) => {
        const file = join(FIXTURES, c.profile)
        expect(canonicalTop(ourTop(file, c.args))).toBe(canonicalTop(goTop(file, c.args)))
      },
      SLOW,
    )
  })

  describe('on profiles generated now', () => {
    let dir = ''
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'pprof-live-'))
      const run = (...args: string[]) =>
        execFileSync('go', ['run', '.', ...args], { cwd: PROFGEN, stdio: 'ignore', env: { ...process.env, GOFLAGS: '-buildvcs=false' } })
      run('real', '-out', dir, '-cpu', '1s', '-trace', '10ms')
      run('synth', '-out', join(dir, 'synth.pb.gz'), '-samples', '5000', '-functions', '400', '-locations', '1200', '-depth', '35', '-seed', '42', '-edge')
    }, SLOW)
    afterAll(() => {
      if (dir !== '') rmSync(dir, { recursive: true, force: true })
    })

    it.each([
      ['go-cpu.pb.gz', []],
      ['go-cpu.pb.gz', ['-nodefraction=0']],
      ['go-heap.pb.gz', []],
      ['go-heap.pb.gz', ['-sample_index=alloc_space']],
      ['go-heap.pb.gz', ['-sample_index=alloc_objects', '-nodefraction=0']],
      ['go-allocs.pb.gz', []],
      ['go-goroutine.pb.gz', []],
      ['synth.pb.gz', []],
      ['synth.pb.gz', ['-nodefraction=0', '-cum']],
      ['synth.pb.gz', ['-sample_index=alloc']],
    ] as const)(
      '%s %s',
      (name, args) => {
        const file = join(dir, name)
        expect(canonicalTop(ourTop(file, args))).toBe(canonicalTop(goTop(file, args)))
      },
      SLOW,
    )

    it('recognises a fresh execution trace', () => {
      const trace = join(dir, 'go-trace.out')
      expect(() => decodeProfile(readFileSync(trace), { source: trace })).toThrow(ProfileFormatError)
      expect(() => decodeProfile(readFileSync(trace), { source: trace })).toThrow(`open it with go tool trace ${trace}`)
    })
  })
})
