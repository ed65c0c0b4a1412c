import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { diffProfiles } from '../../../src/pprof/diff.js'
import { renderTop } from '../../../src/pprof/format.js'
import { scaledLabel } from '../../../src/pprof/measurement.js'
import { topTable, type TopOptions } from '../../../src/pprof/top.js'
import { topJson } from '../../../src/pprof/top-json.js'
import { canonicalTop, optionsFromArgs, parseTop } from './helpers.js'
import { fetchTo, startLeakgen } from './leakgen.js'

// `-diff_base`, `-focus` and `-ignore` against the real `go tool pprof`, on
// profiles of a real leaking Go process (test/leakgen) taken now.
const goMissing = spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0
const SLOW = 300_000

function goTop(args: readonly string[]): string {
  return execFileSync('go', ['tool', 'pprof', '-top', ...args], {
    encoding: 'utf8',
    env: { ...process.env, TZ: 'UTC' },
    stdio: ['ignore', 'pipe', 'ignore'],
    maxBuffer: 64 << 20,
  })
}

/** Splits pprof-style args: -focus/-ignore go to TopOptions, -diff_base picks the base file. */
function ourTop(file: string, args: readonly string[]): string {
  const filters = args.filter((a) => /^-(focus|ignore)=/.test(a))
  const options: TopOptions = optionsFromArgs(args.filter((a) => !filters.includes(a) && !a.startsWith('-diff_base=')))
  for (const f of filters) {
    const [flag, value] = f.slice(1).split('=') as ['focus' | 'ignore', string]
    options[flag] = value
  }
  const base = args.find((a) => a.startsWith('-diff_base='))?.slice('-diff_base='.length)
  const profile = decodeProfile(readFileSync(file))
  return renderTop(topTable(base ? diffProfiles(profile, decodeProfile(readFileSync(base))) : profile, options), { timeZone: 'UTC' })
}

describe.skipIf(goMissing)(`diff, focus and ignore equal go tool pprof (${goMissing ? 'skipped: no `go` on PATH' : 'live'})`, () => {
  let dir = ''
  let child: ChildProcess | undefined
  const at = (name: string) => join(dir, name)

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pprof-diff-'))
    const leak = await startLeakgen(dir, ['-every', '20ms'])
    child = leak.child
    await new Promise((r) => setTimeout(r, 300))
    // Heaps first: a CPU profile's buffers would show up as heap growth.
    await fetchTo(leak.port, '/debug/pprof/heap', at('heap-1.pb.gz'))
    await fetchTo(leak.port, '/debug/pprof/goroutine', at('goroutine-1.pb.gz'))
    await new Promise((r) => setTimeout(r, 500))
    await fetchTo(leak.port, '/debug/pprof/heap', at('heap-2.pb.gz'))
    await fetchTo(leak.port, '/debug/pprof/goroutine', at('goroutine-2.pb.gz'))
    await fetchTo(leak.port, '/debug/pprof/profile?seconds=1', at('cpu-1.pb.gz'))
    await fetchTo(leak.port, '/debug/pprof/profile?seconds=1', at('cpu-2.pb.gz'))
  }, SLOW)
  afterAll(() => {
    child?.kill()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it.each([
    ['heap', []],
    ['heap', ['-sample_index=alloc_space']],
    ['heap', ['-sample_index=inuse_objects', '-nodefraction=0']],
    ['heap', ['-focus=leakyCache']],
    ['heap', ['-ignore=runtime/pprof|flate']],
    ['heap', ['-focus=main', '-ignore=steadyWork', '-cum']],
    ['goroutine', []],
    ['goroutine', ['-nodefraction=0']],
    ['cpu', []],
  ] as const)(
    '%s -diff_base %s',
    (kind, args) => {
      const all = [...args, `-diff_base=${at(`${kind}-1.pb.gz`)}`]
      const file = at(`${kind}-2.pb.gz`)
      const ours = canonicalTop(ourTop(file, all))
      expect(ours).toBe(canonicalTop(goTop([...all, file])))
      expect(parseTop(ours).rows.length).toBeGreaterThan(0)
    },
    SLOW,
  )

  it.each([
    ['heap-2', ['-focus=leakyCache']],
    ['heap-2', ['-ignore=runtime/pprof']],
    ['goroutine-2', ['-focus=parkForever']],
    ['cpu-2', ['-focus=(?i)PPROF', '-nodefraction=0']],
  ] as const)(
    '%s %s',
    (name, args) => {
      const file = at(`${name}.pb.gz`)
      expect(canonicalTop(ourTop(file, args))).toBe(canonicalTop(goTop([...args, file])))
    },
    SLOW,
  )

  it('shows the leaking function first in a heap diff, grown by what leakgen kept', () => {
    const result = topTable(diffProfiles(decodeProfile(readFileSync(at('heap-2.pb.gz'))), decodeProfile(readFileSync(at('heap-1.pb.gz')))))
    expect(result.rows[0]!.name).toBe('main.(*leakyCache).store')
    expect(result.rows[0]!.flat).toBeGreaterThan(64 << 10)
    const goroutines = topTable(diffProfiles(decodeProfile(readFileSync(at('goroutine-2.pb.gz'))), decodeProfile(readFileSync(at('goroutine-1.pb.gz')))))
    // Parked goroutines sit in runtime.gopark (flat); the function that parks them grew in cum.
    expect(goroutines.rows.find((r) => r.name === 'main.parkForever')!.cum).toBeGreaterThan(2)
  })

  it('-o json carries the rows of the text table, in its order, with their values', () => {
    const base = at('heap-1.pb.gz')
    const file = at('heap-2.pb.gz')
    const result = topTable(diffProfiles(decodeProfile(readFileSync(file)), decodeProfile(readFileSync(base))), { focus: 'main' })
    const json = JSON.parse(topJson(result, { file, base })) as { base: string; rows: { name: string; flat: number; cum: number }[]; activeFilters: string[] }
    const go = parseTop(goTop(['-focus=main', `-diff_base=${base}`, file])).rows
    expect(json.base).toBe(base)
    expect(json.activeFilters).toEqual(['focus=main'])
    expect(json.rows.map((r) => [r.name, scaledLabel(r.flat, 'bytes', result.outputUnit), scaledLabel(r.cum, 'bytes', result.outputUnit)])).toEqual(
      go.map((r) => [r.name, r.flat, r.cum]),
    )
  })
})
