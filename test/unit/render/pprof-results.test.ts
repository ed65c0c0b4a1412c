import { describe, expect, it } from 'vitest'
import { loadProfile, topReport } from '../../../src/app/pprof-report.js'
import { flameGraph } from '../../../src/pprof/flame.js'
import { renderTop } from '../../../src/pprof/format.js'
import { goroutineChanges, parseGoroutineText } from '../../../src/pprof/goroutines.js'
import { topJson } from '../../../src/pprof/top-json.js'
import { renderGoroutineGrowth } from '../../../src/render/goroutines.js'
import { renderCaptureResult, savedText } from '../../../src/render/pprof-capture.js'
import { flameWrittenText } from '../../../src/render/pprof-flame.js'
import { formatInterval, renderGrowth, waitingText } from '../../../src/render/pprof-growth.js'
import { renderTopReport, unmatchedFilterWarnings } from '../../../src/render/pprof-top.js'

// The pprof use cases (app/pprof-report.ts, app/pprof-growth.ts) hand data over; these renderers word it. The
// tables themselves are go tool pprof's (test/unit/pprof); here: what surrounds them, and that the data carries
// everything the words need.
const BEFORE = 'examples/profiles/leak-before.pb.gz'
const AFTER = 'examples/profiles/leak-after.pb.gz'

const goroutines = (counts: number[]) =>
  parseGoroutineText(
    `goroutine profile: total ${counts.reduce((a, b) => a + b, 0)}\n` +
      counts.map((n, i) => `${n} @ 0x${i + 1}\n#\t0x${i + 1}\tmain.worker${i}+0x18\t/src/main.go:${i + 1}\n`).join('\n'),
  )

describe('pprof top as data, worded by render/pprof-top.ts', () => {
  it('keeps what was read and the filters asked for beside the table', async () => {
    const report = await topReport({ file: AFTER, base: BEFORE, rows: 3, focus: 'leakyCache', ignore: 'no-such-function' })
    expect(report).toMatchObject({ file: AFTER, base: BEFORE, filters: { focus: 'leakyCache', ignore: 'no-such-function' } })
    expect(report.table.rows).toHaveLength(3)
    expect(report.table.rows[0]!.name).toBe('main.(*leakyCache).store')
    expect(report.table.activeFilters).toEqual(['focus=leakyCache', 'ignore=no-such-function'])
    expect(report.table.unmatchedFilters).toEqual(['ignore'])
  })

  it('prints the table as go tool pprof -top, or as JSON naming both files', async () => {
    const report = await topReport({ file: AFTER, base: BEFORE, rows: 3 })
    expect(renderTopReport(report)).toBe(renderTop(report.table))
    expect(renderTopReport(report, 'text')).toMatch(/^ 1664\.88kB 96\.52% 96\.52% {2}1664\.88kB 96\.52% {2}main\.\(\*leakyCache\)\.store$/m)
    const json = renderTopReport(report, 'json')
    expect(json).toBe(topJson(report.table, { file: AFTER, base: BEFORE }))
    expect(JSON.parse(json)).toMatchObject({ file: AFTER, base: BEFORE, sampleType: 'inuse_space' })
  })

  it('warns once per filter that matched nothing, naming the flag and its pattern', async () => {
    const report = await topReport({ file: AFTER, rows: 3, focus: 'nothing-here', ignore: 'nor-here' })
    expect(unmatchedFilterWarnings(report.table.unmatchedFilters, report.filters)).toEqual([
      'warning: no function, file or binary matches --focus nothing-here\n',
      'warning: no function, file or binary matches --ignore nor-here\n',
    ])
    expect(unmatchedFilterWarnings([], report.filters)).toEqual([])
  })
})

describe('--growth as data, worded by render/pprof-growth.ts', () => {
  it('titles each diff with the go tool pprof command that prints the same table, in the order captured', async () => {
    const diffs = await Promise.all(
      ['inuse_space', 'alloc_space'].map(async (sampleIndex) => ({
        sampleIndex,
        report: await topReport({ file: AFTER, base: BEFORE, rows: 3, sampleIndex }),
      })),
    )
    const text = renderGrowth({ kind: 'heap', intervalMs: 60_000, base: BEFORE, newer: AFTER, diffs }, 3)
    expect(text).toBe(
      `what changed in 1m (inuse_space): go tool pprof -top -sample_index=inuse_space -diff_base ${BEFORE} ${AFTER}\n${renderTop(diffs[0]!.report.table)}` +
        `\nwhat changed in 1m (alloc_space): go tool pprof -top -sample_index=alloc_space -diff_base ${BEFORE} ${AFTER}\n${renderTop(diffs[1]!.report.table)}`,
    )
    // The tables differ: each section shows its own sample index.
    expect(text.match(/^Type: \w+$/gm)).toEqual(['Type: inuse_space', 'Type: alloc_space'])
  })

  it('puts the goroutine counts before a diff without a sample index, and only the counts for a text form', async () => {
    const [before, after] = [goroutines([2, 1]), goroutines([5, 1])]
    const changes = goroutineChanges(before, after)
    const counts = renderGoroutineGrowth(before, after, changes, '2s', 10)
    expect(counts).toMatch(/^goroutines: 3 -> 6 \(\+3\) in 2s$/m)
    const diff = { report: await topReport({ file: AFTER, base: BEFORE, rows: 2 }) }
    const both = renderGrowth(
      { kind: 'goroutine', intervalMs: 2000, base: 'g.base.pb.gz', newer: 'g.pb.gz', goroutines: { before, after, changes }, diffs: [diff] },
      10,
    )
    expect(both).toBe(`${counts}\nwhat changed in 2s: go tool pprof -top -diff_base g.base.pb.gz g.pb.gz\n${renderTop(diff.report.table)}`)
    const textForm = renderGrowth(
      { kind: 'goroutine', intervalMs: 2000, base: 'g.base.txt', newer: 'g.txt', goroutines: { before, after, changes }, diffs: [] },
      10,
    )
    expect(textForm).toBe(counts)
    expect(
      renderCaptureResult(
        { kind: 'growth', growth: { kind: 'goroutine', intervalMs: 2000, base: 'a', newer: 'b', goroutines: { before, after, changes }, diffs: [] } },
        10,
      ),
    ).toBe(counts)
  })

  it('says the interval as --growth takes it', () => {
    expect([60_000, 120_000, 90_000, 2000, 1500].map(formatInterval)).toEqual(['1m', '2m', '90s', '2s', '1500ms'])
    expect(waitingText({ kind: 'heap', namespace: 'cosmos', pod: 'fullnode-0', intervalMs: 60_000 })).toBe(
      'waiting 1m for the second heap capture from cosmos/fullnode-0',
    )
  })
})

describe('a capture and a flame graph, worded by their renderers', () => {
  it('tells where a capture was saved and prints its top table', async () => {
    expect(savedText('/tmp/heap.pb.gz', 2048)).toBe('saved /tmp/heap.pb.gz (2048 bytes)')
    const report = await topReport({ file: AFTER, rows: 4 })
    expect(renderCaptureResult({ kind: 'top', report }, 4)).toBe(renderTop(report.table))
    expect(renderCaptureResult({ kind: 'trace', file: 't.trace' }, 4)).toBe('open it with: go tool trace t.trace')
  })

  it('tells what was drawn: frames, sample type, size and how to read it', async () => {
    const graph = flameGraph(await loadProfile('examples/profiles/cpu.pb.gz'))
    const frames = graph.value.length - 1
    expect(frames).toBeGreaterThan(10)
    expect(flameWrittenText({ output: 'cpu.html', format: 'html', bytes: 40_960, graph })).toBe(
      `wrote cpu.html (${frames} frames of ${graph.sampleType}, 40 KiB): open it in a browser (search: type a regexp; zoom: click a frame)`,
    )
    expect(flameWrittenText({ output: 'cpu.svg', format: 'svg', bytes: 1536, graph })).toBe(
      `wrote cpu.svg (${frames} frames of ${graph.sampleType}, 2 KiB): a picture; -o NAME.html gives search and zoom`,
    )
  })
})
