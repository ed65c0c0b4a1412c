import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { decodeProfile } from '../../../src/pprof/decode.js'
import { renderTop } from '../../../src/pprof/format.js'
import { topTable } from '../../../src/pprof/top.js'
import { canonicalTop, FIXTURES, fixture, manifest, optionsFromArgs, parseTop } from './helpers.js'

// Each case is a profile plus the text `go tool pprof -top ARGS` printed for
// it (saved by `cd test/profgen && go run . fixtures`, with TZ=UTC).
const { cases, goVersion } = manifest()

describe(`top table against saved go tool pprof -top output (${goVersion})`, () => {
  it.each(cases.map((c) => [`${c.profile} ${c.args.join(' ') || '(defaults)'}`, c] as const))('%s', (_, c) => {
    const expected = readFileSync(join(FIXTURES, c.output), 'utf8')
    const result = topTable(decodeProfile(fixture(c.profile)), optionsFromArgs(c.args))
    const actual = renderTop(result, { timeZone: 'UTC' })

    // Same functions, same order, same flat and cum, as pprof prints them.
    const want = parseTop(expected)
    const got = parseTop(actual)
    expect(got.rows.map((r) => [r.name, r.flat, r.cum, r.inline])).toEqual(want.rows.map((r) => [r.name, r.flat, r.cum, r.inline]))
    // Formatted text, header included, character for character.
    expect(canonicalTop(actual)).toBe(canonicalTop(expected))

    // The numbers behind the text agree with the text.
    expect(result.rows).toHaveLength(want.rows.length)
    const flatSum = result.rows.reduce((s, r) => s + r.flat, 0)
    expect(result.showing.value).toBe(flatSum)
  })
})

describe('default sample index', () => {
  const typeLine = (name: string, args: string[] = []): string => {
    const text = renderTop(topTable(decodeProfile(fixture(name)), optionsFromArgs(args)), { timeZone: 'UTC' })
    return text.split('\n').find((l) => l.startsWith('Type: '))!
  }

  it('is inuse_space for a Go heap profile (no default_sample_type, last type)', () => {
    expect(decodeProfile(fixture('go-heap.pb.gz')).defaultSampleType).toBe('')
    expect(typeLine('go-heap.pb.gz')).toBe('Type: inuse_space')
  })

  it('is alloc_space for a Go allocs profile (default_sample_type set)', () => {
    expect(decodeProfile(fixture('go-allocs.pb.gz')).defaultSampleType).toBe('alloc_space')
    expect(typeLine('go-allocs.pb.gz')).toBe('Type: alloc_space')
  })

  it('is cpu for a Go CPU profile', () => {
    expect(typeLine('go-cpu.pb.gz')).toBe('Type: cpu')
  })

  it('follows default_sample_type even when it is not the last type', () => {
    const p = decodeProfile(fixture('synth-edge.pb.gz'))
    expect(p.sampleTypes.map((t) => t.type)).toEqual(['samples', 'cpu', 'alloc'])
    expect(typeLine('synth-edge.pb.gz')).toBe('Type: cpu')
  })

  it('can be chosen by name or by number', () => {
    expect(typeLine('go-heap.pb.gz', ['-sample_index=alloc_space'])).toBe('Type: alloc_space')
    expect(typeLine('go-heap.pb.gz', ['-sample_index=1'])).toBe('Type: alloc_space')
    const byName = topTable(decodeProfile(fixture('go-heap.pb.gz')), { sampleIndex: 'alloc_space' })
    const byNumber = topTable(decodeProfile(fixture('go-heap.pb.gz')), { sampleIndex: 1 })
    expect(byNumber).toEqual(byName)
  })
})

describe('raw and gzipped forms of one profile', () => {
  it('decode to the same profile', () => {
    expect(decodeProfile(fixture('synth-edge.pb'))).toEqual(decodeProfile(fixture('synth-edge.pb.gz')))
  })
})
