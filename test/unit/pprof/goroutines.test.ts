import { spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { goroutineChanges, goroutineGroups, parseGoroutineText, type GoroutineDump } from '../../../src/pprof/goroutines.js'
import { renderGoroutineGroups, renderGoroutineGrowth } from '../../../src/render/goroutines.js'
import { fetchTo, startLeakgen } from './leakgen.js'

const DEBUG1 = `goroutine profile: total 5
3 @ 0x48a08e 0x41a58e 0x677459 0x491901
#\t0x677458\tmain.parkForever+0x18\t/src/main.go:53

1 @ 0x420989 0x48c2b8 0x491901
# labels: {"__proto__":"x"}
#\t0x48c2b7\t__proto__+0x97\t/src/x.go:1
#\t0x676a92\tevil\u001b[2Jname+0x12\t\t/src/y.go:23

1 @ 0x1
`

const DEBUG2 = `goroutine 7 [chan receive, 5 minutes]:
main.parkForever(0x3536f0a)
\t/src/main.go:53 +0x18
created by main.main in goroutine 1
\t/src/main.go:99 +0x3c

goroutine 8 [chan receive]:
main.parkForever(...)
\t/src/main.go:53 +0x18
created by main.main in goroutine 1
\t/src/main.go:99 +0x3c

goroutine 1 gp=0xc000002380 m=nil [select]:
main.main()
\t/src/main.go:102 +0x60c
...additional frames elided...
`

describe('goroutine dumps grouped by stack', () => {
  it('reads ?debug=1: counts per stack, the declared total, frames without offsets', () => {
    const dump = parseGoroutineText(DEBUG1)
    expect(dump.form).toBe('debug=1')
    expect(dump.total).toBe(5)
    expect(dump.groups.map((g) => [g.count, g.frames])).toEqual([
      [3, ['main.parkForever']],
      [1, ['__proto__', 'evil\u001b[2Jname']],
      [1, []],
    ])
  })

  it('reads ?debug=2: one group per stack with its wait states, "created by" kept', () => {
    const dump = parseGoroutineText(DEBUG2)
    expect(dump.form).toBe('debug=2')
    expect(dump.total).toBe(3)
    expect(dump.groups[0]).toEqual({ count: 2, frames: ['main.parkForever', 'created by main.main'], states: new Map([['chan receive', 2]]) })
    expect(dump.groups[1]!.frames).toEqual(['main.main'])
    expect(dump.groups[1]!.states).toEqual(new Map([['select', 1]]))
  })

  it('prints control characters in names visibly', () => {
    const text = renderGoroutineGroups(parseGoroutineText(DEBUG1), 10)
    expect(text).toContain('evil^[[2Jname')
    expect(text).not.toContain('\u001b')
  })

  it('refuses text that is not a goroutine dump in one line', () => {
    expect(() => parseGoroutineText('heap profile: 1: 2 [3: 4] @ heap/1048576')).toThrow(/not a goroutine dump/)
  })

  it('shows a leak as the stacks that gained goroutines, and no leak when nothing grew', () => {
    const before = parseGoroutineText(DEBUG2)
    const after = parseGoroutineText(
      `${DEBUG2}\ngoroutine 9 [chan receive]:\nmain.parkForever(...)\n\t/src/main.go:53\ncreated by main.main in goroutine 1\n\t/src/main.go:99\n`,
    )
    const changes = goroutineChanges(before, after)
    expect(changes[0]).toMatchObject({ before: 2, after: 3, frames: ['main.parkForever', 'created by main.main'] })
    const text = renderGoroutineGrowth(before, after, changes, '60s', 10)
    expect(text).toMatch(/^goroutines: 3 -> 4 \(\+1\) in 60s$/m)
    expect(text).toMatch(/^goroutine leak suspected: 1 stack gained goroutines/m)
    expect(text).toMatch(/^\s+\+1\s+2\s+3 {2}main\.parkForever$/m)
    expect(renderGoroutineGrowth(before, before, goroutineChanges(before, before), '60s', 10)).toMatch(/^no goroutine growth/m)
  })
})

const goMissing = spawnSync('go', ['version'], { encoding: 'utf8' }).status !== 0

describe.skipIf(goMissing)(`the three forms of a real process agree (${goMissing ? 'skipped: no `go` on PATH' : 'live'})`, () => {
  let dir = ''
  let child: ChildProcess | undefined
  let dumps: GoroutineDump[] = []
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'goroutines-'))
    // 40 ticks then no more leaking: the three captures see the same goroutines.
    const leak = await startLeakgen(dir, ['-every', '5ms', '-ticks', '40'])
    child = leak.child
    await new Promise((r) => setTimeout(r, 800))
    await fetchTo(leak.port, '/debug/pprof/goroutine', join(dir, 'g.pb.gz'))
    await fetchTo(leak.port, '/debug/pprof/goroutine?debug=1', join(dir, 'g1.txt'))
    await fetchTo(leak.port, '/debug/pprof/goroutine?debug=2', join(dir, 'g2.txt'))
    dumps = [
      goroutineGroups(decodeProfile(readFileSync(join(dir, 'g.pb.gz')))),
      parseGoroutineText(readFileSync(join(dir, 'g1.txt'), 'utf8')),
      parseGoroutineText(readFileSync(join(dir, 'g2.txt'), 'utf8')),
    ]
  }, 300_000)
  afterAll(() => {
    child?.kill()
    if (dir !== '') rmSync(dir, { recursive: true, force: true })
  })

  it('counts the 80 parked goroutines under main.parkForever in every form', () => {
    for (const dump of dumps) {
      const parked = goroutineChanges(dump, dump).find((c) => c.frames[0] === 'main.parkForever')
      expect(parked?.after, dump.form).toBe(80)
    }
    expect(dumps[2]!.groups.find((g) => g.frames[0] === 'main.parkForever')!.states).toEqual(new Map([['chan receive', 80]]))
  })
})
