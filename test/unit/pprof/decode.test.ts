import { gunzipSync, gzipSync } from 'node:zlib'
import { Profile as PprofFormatProfile } from 'pprof-format'
import { describe, expect, it } from 'vitest'
import { decodeProfile, ProfileFormatError, sniffProfileKind } from '../../../src/pprof/decode.js'
import type { Profile } from '../../../src/pprof/types.js'
import { buildProfile, ProtoWriter } from './build-profile.js'
import { fixture, manifest } from './helpers.js'

const HTML_404 = `<!DOCTYPE html>
<html><head><title>404 Not Found</title></head>
<body><center><h1>404 Not Found</h1></center><hr><center>nginx</center></body></html>
`

function formatError(fn: () => unknown): ProfileFormatError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(ProfileFormatError)
    const e = err as ProfileFormatError
    expect(e.name).toBe('ProfileFormatError')
    expect(e.message).not.toContain('\n') // one line for the user
    return e
  }
  throw new Error('expected a ProfileFormatError')
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s)

describe('sniffProfileKind', () => {
  it.each([
    ['gzip', fixture('go-heap.pb.gz'), 'pprof-gzip'],
    ['raw protobuf', fixture('synth-edge.pb'), 'pprof-raw'],
    ['raw protobuf, first 64 bytes', fixture('synth-edge.pb').subarray(0, 64), 'pprof-raw'],
    ['Go execution trace', fixture('go-trace.out'), 'go-trace'],
    ['HTML 404 page', text(HTML_404), 'html'],
    ['HTML with BOM and blank lines', text('\uFEFF\n\n  <html lang="en"><body>denied</body></html>'), 'html'],
    ["Go's 404 text", text('404 page not found\n'), 'text'],
    ['WriteTimeout error', text("profile duration exceeds server's WriteTimeout\n"), 'text'],
    ['empty', new Uint8Array(0), 'unknown'],
    ['binary noise', Uint8Array.from([0xff, 0x00, 0x13, 0x37, 0xde, 0xad, 0xbe, 0xef]), 'unknown'],
  ] as const)('%s', (_, bytes, kind) => {
    expect(sniffProfileKind(bytes)).toBe(kind)
  })
})

describe('decodeProfile rejects what is not a profile', () => {
  it('empty input', () => {
    const e = formatError(() => decodeProfile(new Uint8Array(0)))
    expect(e.code).toBe('empty')
    expect(e.message).toMatch(/empty/)
  })

  it('gzip holding nothing', () => {
    expect(formatError(() => decodeProfile(gzipSync(Buffer.alloc(0)))).code).toBe('empty')
  })

  it('an HTML error page, naming it as such', () => {
    const e = formatError(() => decodeProfile(text(HTML_404)))
    expect(e.code).toBe('html')
    expect(e.message).toMatch(/HTML page/)
    expect(e.message).toContain('404 Not Found')
  })

  it('a gzipped HTML page', () => {
    const e = formatError(() => decodeProfile(gzipSync(HTML_404)))
    expect(e.code).toBe('html')
    expect(e.message).toContain('gzip-compressed')
  })

  it("plain text such as Go's 404 reply, quoting it", () => {
    const e = formatError(() => decodeProfile(text('404 page not found\n')))
    expect(e.code).toBe('text')
    expect(e.message).toContain('"404 page not found"')
  })

  it('a ?debug=1 text profile, with a hint', () => {
    const e = formatError(() => decodeProfile(text('heap profile: 3: 1024 [5: 4096] @ heap/524288\n1: 512 [1: 512] @ 0x1\n')))
    expect(e.code).toBe('text')
    expect(e.message).toMatch(/without \?debug=/)
  })

  it('gzipped JSON', () => {
    const e = formatError(() => decodeProfile(gzipSync('{"error":"forbidden"}')))
    expect(e.code).toBe('text')
    expect(e.message).toContain('gzip-compressed')
  })

  it('a Go execution trace, pointing at go tool trace', () => {
    const e = formatError(() => decodeProfile(fixture('go-trace.out'), { source: 'trace.out' }))
    expect(e.code).toBe('go-trace')
    expect(e.message).toContain('this is an execution trace')
    expect(e.message).toContain('open it with go tool trace trace.out')
    expect(formatError(() => decodeProfile(fixture('go-trace.out'))).message).toContain('go tool trace FILE')
  })

  it('truncated gzip', () => {
    const gz = fixture('go-cpu.pb.gz')
    for (const cut of [gz.length - 1, Math.floor(gz.length / 2), 12]) {
      const e = formatError(() => decodeProfile(gz.subarray(0, cut)))
      expect(e.code).toBe('truncated-gzip')
      expect(e.message).toMatch(/truncated/)
    }
  })

  it('corrupt gzip', () => {
    const gz = Buffer.from(fixture('go-cpu.pb.gz'))
    gz.fill(0xff, 20, 60)
    expect(formatError(() => decodeProfile(gz)).code).toMatch(/^(corrupt-gzip|truncated-gzip)$/)
    const badHeader = Buffer.from(fixture('go-cpu.pb.gz'))
    badHeader[2] = 0x09 // unknown compression method
    expect(formatError(() => decodeProfile(badHeader)).code).toBe('corrupt-gzip')
  })

  it('truncated raw protobuf, and truncated protobuf inside valid gzip', () => {
    const raw = fixture('synth-edge.pb')
    for (const cut of [raw.length - 1, Math.floor(raw.length / 3), 3]) {
      const e = formatError(() => decodeProfile(raw.subarray(0, cut)))
      expect(e.code).toBe('truncated-protobuf')
      expect(e.message).toMatch(/truncated/)
      expect(formatError(() => decodeProfile(gzipSync(raw.subarray(0, cut)))).code).toBe('truncated-protobuf')
    }
  })

  it('binary data that is neither gzip nor protobuf', () => {
    const noise = Uint8Array.from({ length: 256 }, (_, i) => (i * 151 + 7) & 0xff)
    const e = formatError(() => decodeProfile(noise))
    expect(e.code).toBe('not-pprof')
    expect(e.message).toMatch(/neither gzip nor profile protobuf/)
  })

  it('protobuf with broken references', () => {
    const base = { sampleTypes: [['samples', 'count']] as [string, string][], locations: { 1: ['main.f'] } }
    const unknownLocation = buildProfile({ ...base, samples: [{ stack: [2], values: [1] }] })
    expect(formatError(() => decodeProfile(unknownLocation)).message).toMatch(/unknown location id 2/)
    // Ids 1..n are read as indexes straight away: id 0 (one byte, or two written 80 00), an id past n (one or two
    // bytes) and a wide id still name the first unknown location, wherever it sits.
    const many = { ...base, locations: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [i + 1, [`main.f${i}`]])) }
    for (const [stack, id] of [
      [[1, 0, 2], 0],
      [[150, 201, 3, 900], 201],
      [[150, 3, 900, 201], 900],
      [[1, 2n ** 33n], 2 ** 33],
    ] as const) {
      expect(formatError(() => decodeProfile(buildProfile({ ...many, samples: [{ stack: [...stack], values: [1] }] }))).message).toMatch(
        new RegExp(`unknown location id ${id}$`),
      )
    }
    const zeroInTwoBytes = new ProtoWriter().message(2, new ProtoWriter().message(1, Uint8Array.from([0x01, 0x80, 0x00])).int(2, 1)).done()
    const good = buildProfile({ ...base, samples: [{ stack: [1], values: [1] }] })
    expect(formatError(() => decodeProfile(Uint8Array.from([...zeroInTwoBytes, ...good]))).message).toMatch(/unknown location id 0$/)
    const dense = decodeProfile(buildProfile({ ...many, samples: [{ stack: [200, 129, 128, 1], values: [1] }] }))
    expect([...dense.samples.locationIndex]).toEqual([199, 128, 127, 0])
    const sparse = decodeProfile(buildProfile({ ...base, locations: { 7: ['main.a'], 300: ['main.b'] }, samples: [{ stack: [300, 7], values: [1] }] }))
    expect([...sparse.samples.locationIndex]).toEqual([1, 0])
    const valueCount = buildProfile({ ...base, samples: [{ stack: [1], values: [1, 2] }] })
    expect(formatError(() => decodeProfile(valueCount)).code).toBe('invalid-profile')
    const noStrings = new ProtoWriter().message(1, new ProtoWriter().int(1, 0)).done()
    expect(formatError(() => decodeProfile(noStrings)).message).toMatch(/no string table/)
  })
})

describe('decodeProfile reads profiles', () => {
  it('normalises int64 values: negative numbers, wide ids, packed or not', () => {
    const wideId = 2n ** 40n + 5n
    for (const unpacked of [false, true]) {
      const p = decodeProfile(
        buildProfile({
          unpacked,
          sampleTypes: [
            ['samples', 'count'],
            ['space', 'bytes'],
          ],
          locations: { 1: ['main.a'], [Number(wideId)]: ['main.b', 'main.c'] },
          samples: [
            { stack: [wideId, 1], values: [-3, -(2 ** 40)] },
            { stack: [1], values: [2 ** 52, 7] },
          ],
        }),
      )
      expect(Array.from(p.samples.values)).toEqual([-3, -(2 ** 40), 2 ** 52, 7])
      expect(p.locations.map((l) => l.id)).toEqual([1, Number(wideId)])
      expect(Array.from(p.samples.locationIndex)).toEqual([1, 0, 0])
      expect(Array.from(p.samples.locationStart)).toEqual([0, 2, 3])
      expect(p.locations[1]!.lines.map((l) => p.functions[l.functionIndex]!.name)).toEqual(['main.b', 'main.c'])
    }
  })

  it('skips unknown fields', () => {
    const bytes = buildProfile({ sampleTypes: [['samples', 'count']], locations: { 1: ['main.f'] }, samples: [{ stack: [1], values: [4] }] })
    const extra = new ProtoWriter().int(99, 12345).message(100, new ProtoWriter().int(1, 1)).done()
    const p = decodeProfile(Uint8Array.from([...extra, ...bytes]))
    expect(p.functions[0]!.name).toBe('main.f')
    expect(p.samples.values[0]).toBe(4)
  })

  it.each(
    manifest()
      .cases.map((c) => c.profile)
      .filter((v, i, a) => a.indexOf(v) === i),
  )('%s matches pprof-format', (name) => {
    expect(decodeProfile(fixture(name))).toEqual(viaPprofFormat(fixture(name)))
  })
})

/** The same Profile shape, built from pprof-format's general decoder. */
function viaPprofFormat(bytes: Uint8Array): Profile {
  const p = PprofFormatProfile.decode(bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes)
  const s = p.stringTable.strings
  const n = (v: number | bigint): number => Number(BigInt.asIntN(64, BigInt(v)))
  const u = (v: number | bigint): number => Number(BigInt.asUintN(64, BigInt(v)))
  const str = (v: number | bigint): string => s[Number(v)]!
  const fnIndex = new Map(p.function.map((f, i) => [u(f.id), i]))
  const mapIndex = new Map(p.mapping.map((m, i) => [u(m.id), i]))
  const locIndex = new Map(p.location.map((l, i) => [u(l.id), i]))
  const locationStart: number[] = [0]
  const locationIndex: number[] = []
  const values: number[] = []
  for (const sample of p.sample) {
    for (const id of sample.locationId) locationIndex.push(locIndex.get(u(id))!)
    locationStart.push(locationIndex.length)
    values.push(...sample.value.map(n))
  }
  return {
    sampleTypes: p.sampleType.map((t) => ({ type: str(t.type), unit: str(t.unit) })),
    defaultSampleType: str(p.defaultSampleType),
    samples: {
      count: p.sample.length,
      locationStart: Uint32Array.from(locationStart),
      locationIndex: Uint32Array.from(locationIndex),
      values: Float64Array.from(values),
    },
    locations: p.location.map((l) => ({
      id: u(l.id),
      mappingIndex: u(l.mappingId) === 0 ? -1 : (mapIndex.get(u(l.mappingId)) ?? -1),
      address: u(l.address),
      isFolded: l.isFolded,
      lines: l.line.map((ln) => ({ functionIndex: fnIndex.get(u(ln.functionId))!, line: n(ln.line), column: n(ln.column) })),
    })),
    functions: p.function.map((f) => ({
      id: u(f.id),
      name: str(f.name),
      systemName: str(f.systemName),
      filename: str(f.filename),
      startLine: n(f.startLine),
    })),
    mappings: p.mapping.map((m) => ({
      id: u(m.id),
      start: u(m.memoryStart),
      limit: u(m.memoryLimit),
      offset: u(m.fileOffset),
      file: str(m.filename),
      buildId: str(m.buildId),
      hasFunctions: m.hasFunctions,
      hasFilenames: m.hasFilenames,
      hasLineNumbers: m.hasLineNumbers,
      hasInlineFrames: m.hasInlineFrames,
    })),
    dropFrames: str(p.dropFrames),
    keepFrames: str(p.keepFrames),
    timeNanos: n(p.timeNanos),
    durationNanos: n(p.durationNanos),
    periodType: p.periodType ? { type: str(p.periodType.type), unit: str(p.periodType.unit) } : undefined,
    period: n(p.period),
    comments: p.comment.map(str),
    docUrl: str(p.docUrl),
  }
}
