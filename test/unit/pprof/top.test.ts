import { describe, expect, it } from 'vitest'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { ProfileUsageError } from '../../../src/pprof/errors.js'
import { renderTop } from '../../../src/pprof/format.js'
import { sampleTypes, topTable, type TopResult } from '../../../src/pprof/top.js'
import { buildProfile, cpuProfile as cpu } from './build-profile.js'
import { fixture } from './helpers.js'

const table = (r: TopResult) => r.rows.map((row) => [row.name, row.flat / 1e7, row.cum / 1e7, row.inline])

describe('flat and cum', () => {
  it('counts a function once per sample in cum, even when recursive, and flat at the leaf', () => {
    const p = cpu({ 1: ['main.fib'], 2: ['main.main'] }, [
      [[1, 1, 1, 2], 3],
      [[1, 2], 1],
      [[2], 2],
    ])
    expect(table(topTable(p, { nodeFraction: 0 }))).toEqual([
      ['main.fib', 4, 4, null],
      ['main.main', 2, 6, null],
    ])
  })

  it('gives inlined frames nodes of their own and marks them (inline) or (partial-inline)', () => {
    // Location 1: main.hash inlined into main.loop; location 3: main.hash called.
    const p = cpu({ 1: ['main.hash', 'main.loop'], 2: ['main.main'], 3: ['main.hash'], 4: ['main.util', 'main.util2'] }, [
      [[1, 2], 5],
      [[3, 2], 2],
      [[4, 2], 1],
    ])
    expect(table(topTable(p, { nodeFraction: 0, edgeFraction: 0 }))).toEqual([
      ['main.hash', 7, 7, 'partial-inline'],
      ['main.util', 1, 1, 'inline'],
      ['main.loop', 0, 5, null],
      ['main.main', 0, 8, null],
      ['main.util2', 0, 1, null],
    ])
  })

  it('sorts by |flat|, then name, and by |cum| with cum: true', () => {
    const p = cpu({ 1: ['b'], 2: ['a'], 3: ['c'], 4: ['root'] }, [
      [[1, 4], 2],
      [[2, 4], 2],
      [[3, 4], -5],
    ])
    const flatOrder = topTable(p, { nodeFraction: 0 })
    expect(flatOrder.rows.map((r) => r.name)).toEqual(['c', 'a', 'b', 'root'])
    expect(flatOrder.total).toBe(9 * 1e7) // sum of |value|
    expect(topTable(p, { nodeFraction: 0, cum: true }).rows.map((r) => r.name)).toEqual(['c', 'a', 'b', 'root'])
    expect(topTable(p, { nodeFraction: 0, cum: true }).rows.map((r) => r.cum / 1e7)).toEqual([-5, 2, 2, -1])
  })
})

describe('node fraction', () => {
  // 1000 samples in main.hot, 4 in main.cold (under 0.5%), all under main.main.
  const p = cpu({ 1: ['main.hot'], 2: ['main.cold'], 3: ['main.main'] }, [
    [[1, 3], 1000],
    [[2, 3], 4],
  ])

  it('drops nodes whose cum is under the fraction and reports them', () => {
    const r = topTable(p)
    expect(r.rows.map((row) => row.name)).toEqual(['main.hot', 'main.main'])
    expect(r.dropped).toEqual({ nodes: 1, cumThreshold: Math.trunc(1004e7 * 0.005) })
    // A sample whose leaf was dropped gives its flat to nobody.
    expect(r.showing.value).toBe(1000e7)
    expect(renderTop(r)).toContain('Dropped 1 node (cum <= 0.05s)\n')
  })

  it('keeps every node at 0', () => {
    const r = topTable(p, { nodeFraction: 0 })
    expect(r.rows).toHaveLength(3)
    expect(r.dropped.nodes).toBe(0)
  })

  it('nodeCount keeps the top rows and says so', () => {
    const text = renderTop(topTable(p, { nodeFraction: 0, nodeCount: 1 }))
    expect(text).toContain('Showing top 1 nodes out of 3\n')
  })
})

describe('sample index', () => {
  const heap = decodeProfile(fixture('go-heap.pb.gz'))

  it('lists the choices and the default', () => {
    expect(sampleTypes(heap)).toEqual([
      { index: 0, type: 'alloc_objects', unit: 'count', isDefault: false },
      { index: 1, type: 'alloc_space', unit: 'bytes', isDefault: false },
      { index: 2, type: 'inuse_objects', unit: 'count', isDefault: false },
      { index: 3, type: 'inuse_space', unit: 'bytes', isDefault: true },
    ])
  })

  it('rejects an unknown name, listing the valid ones', () => {
    let error: unknown
    try {
      topTable(heap, { sampleIndex: 'cpu' })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ProfileUsageError)
    const e = error as ProfileUsageError
    expect(e.code).toBe('unknown-sample-index')
    expect(e.choices).toEqual(['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space'])
    expect(e.message).toBe('unknown sample index "cpu"; the profile has: alloc_objects, alloc_space, inuse_objects, inuse_space (or 0..3)')
  })

  it('rejects a number out of range', () => {
    expect(() => topTable(heap, { sampleIndex: 4 })).toThrow(/sample index 4 is outside the range \[0\.\.3\]/)
    expect(() => topTable(heap, { sampleIndex: '-1' })).toThrow(ProfileUsageError)
  })

  it('accepts the legacy inuse_ prefix for profiles typed space/objects', () => {
    const legacy = decodeProfile(
      buildProfile({
        sampleTypes: [
          ['objects', 'count'],
          ['space', 'bytes'],
        ],
        locations: { 1: ['main.f'] },
        samples: [{ stack: [1], values: [1, 2048] }],
      }),
    )
    expect(topTable(legacy, { sampleIndex: 'inuse_objects' }).sampleType).toBe('objects')
  })

  it('treats a profile without sample types as a usage error', () => {
    const empty = decodeProfile(buildProfile({ sampleTypes: [], locations: {}, samples: [] }))
    expect(() => topTable(empty)).toThrow(ProfileUsageError)
  })
})

describe('empty profiles', () => {
  it('render the header pprof prints for no samples', () => {
    const empty = decodeProfile(buildProfile({ sampleTypes: [['samples', 'count']], locations: {}, samples: [] }))
    expect(renderTop(topTable(empty))).toBe(
      'File: app\nType: samples\nShowing nodes accounting for 0, 0% of 0 total\n      flat  flat%   sum%        cum   cum%\n',
    )
  })
})

describe('drop_frames from the profile', () => {
  it('prunes the matching frame and everything beneath it', () => {
    const p = cpu({ 1: ['runtime.memmove'], 2: ['main.copy'], 3: ['main.main'] }, [[[1, 2, 3], 3]], { dropFrames: 'runtime\\.memmove' })
    expect(table(topTable(p, { nodeFraction: 0 }))).toEqual([
      ['main.copy', 3, 3, null],
      ['main.main', 0, 3, null],
    ])
  })

  it("a profile's own catastrophic expression against its own long names ends (RE2: a backtracking RegExp takes 2^n steps)", () => {
    const long = 'a'.repeat(5_000)
    const p = cpu({ 1: [long], 2: ['main.main'] }, [[[1, 2], 3]], { dropFrames: '(a+)+b|(a|aa)+c' })
    expect(table(topTable(p, { nodeFraction: 0, focus: '(a|a)+$x', ignore: '(a*)*b' }))).toEqual([])
    // The same shape that matches: the long frame is dropped beneath main.main.
    const matching = cpu({ 1: [long], 2: ['main.main'] }, [[[1, 2], 3]], { dropFrames: '(a+)+' })
    expect(table(topTable(matching, { nodeFraction: 0 }))).toEqual([['main.main', 3, 3, null]])
  })
})

// Texts printed by `go tool pprof -top -nodefraction=0 -edgefraction=0`
// (go1.26.8) for the hand-built profiles above.
describe('hand-built profiles render as go tool pprof printed them', () => {
  const opts = { nodeFraction: 0, edgeFraction: 0 }
  it('inline marks', () => {
    const p = cpu({ 1: ['main.hash', 'main.loop'], 2: ['main.main'], 3: ['main.hash'], 4: ['main.util', 'main.util2'] }, [
      [[1, 2], 5],
      [[3, 2], 2],
      [[4, 2], 1],
    ])
    expect(renderTop(topTable(p, opts))).toBe(`File: app
Type: cpu
Showing nodes accounting for 80ms, 100% of 80ms total
      flat  flat%   sum%        cum   cum%
      70ms 87.50% 87.50%       70ms 87.50%  main.hash (partial-inline)
      10ms 12.50%   100%       10ms 12.50%  main.util (inline)
         0     0%   100%       50ms 62.50%  main.loop
         0     0%   100%       80ms   100%  main.main
         0     0%   100%       10ms 12.50%  main.util2
`)
  })

  it('negative values', () => {
    const p = cpu({ 1: ['b'], 2: ['a'], 3: ['c'], 4: ['root'] }, [
      [[1, 4], 2],
      [[2, 4], 2],
      [[3, 4], -5],
    ])
    expect(renderTop(topTable(p, opts))).toBe(`File: app
Type: cpu
Showing nodes accounting for -10ms, 11.11% of 90ms total
      flat  flat%   sum%        cum   cum%
     -50ms 55.56% 55.56%      -50ms 55.56%  c
      20ms 22.22% 33.33%       20ms 22.22%  a
      20ms 22.22% 11.11%       20ms 22.22%  b
         0     0% 11.11%      -10ms 11.11%  root
`)
  })

  it('default node fraction', () => {
    const p = cpu({ 1: ['main.hot'], 2: ['main.cold'], 3: ['main.main'] }, [
      [[1, 3], 1000],
      [[2, 3], 4],
    ])
    expect(renderTop(topTable(p))).toBe(`File: app
Type: cpu
Showing nodes accounting for 10s, 99.60% of 10.04s total
Dropped 1 node (cum <= 0.05s)
      flat  flat%   sum%        cum   cum%
       10s 99.60% 99.60%        10s 99.60%  main.hot
         0     0% 99.60%     10.04s   100%  main.main
`)
  })
})
