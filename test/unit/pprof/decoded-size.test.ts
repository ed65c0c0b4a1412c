import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodeProfile, ProfileFormatError } from '../../../src/pprof/decode.js'
import { profileCensus } from '../../../src/pprof/proto-census.js'
import { buildProfile } from './build-profile.js'
import { fixture } from './helpers.js'

/*
 * Issue 31, item 3: memory for a profile is bounded by what it decodes to, not by its size on disk. A census
 * counts what the decoder would build before anything is allocated, and a profile over the decoded limit is
 * refused in one line naming what made it large.
 */
const raw = (name: string) => {
  const bytes = fixture(name)
  return bytes[0] === 0x1f ? gunzipSync(bytes) : bytes
}

describe('profile census', () => {
  it.each(['go-cpu.pb.gz', 'go-heap.pb.gz', 'go-allocs.pb.gz', 'synth-edge.pb', 'synth-drop.pb.gz'])('counts what %s decodes to', (name) => {
    const bytes = raw(name)
    const c = profileCensus(bytes)
    const p = decodeProfile(bytes)
    expect(c.samples).toBe(p.samples.count)
    expect(c.frames).toBe(p.samples.locationIndex.length)
    expect(c.values).toBe(p.samples.values.length)
    expect(c.locations).toBe(p.locations.length)
    expect(c.lines).toBe(p.locations.reduce((n, l) => n + l.lines.length, 0))
    expect(c.functions).toBe(p.functions.length)
    expect(c.mappings).toBe(p.mappings.length)
  })

  it('counts packed and unpacked stacks alike, and wide location ids', () => {
    const spec = {
      sampleTypes: [['samples', 'count']] as [string, string][],
      locations: { 1: ['main.a'], 300: ['main.b', 'main.c'], 70000: [] },
      samples: [
        { stack: [1, 300, 70000], values: [5] },
        { stack: [300], values: [1] },
      ],
    }
    for (const unpacked of [false, true]) {
      const c = profileCensus(buildProfile({ ...spec, unpacked }))
      expect([c.samples, c.frames, c.values, c.locations, c.lines]).toEqual([2, 4, 2, 3, 3])
    }
  })

  it('a profile of tiny locations weighs what its objects weigh, not its bytes: refused before decoding', () => {
    const locations: Record<number, string[]> = {}
    for (let id = 1; id <= 20_000; id++) locations[id] = ['main.f']
    const bytes = buildProfile({ sampleTypes: [['samples', 'count']], locations, samples: [{ stack: [1], values: [1] }] })
    const c = profileCensus(bytes)
    // A few bytes per location on disk, hundreds once decoded.
    expect(c.decodedBytes / bytes.length).toBeGreaterThan(20)
    let error: unknown
    try {
      decodeProfile(bytes, { maxDecodedBytes: c.decodedBytes - 1 })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ProfileFormatError)
    expect((error as ProfileFormatError).code).toBe('decoded-too-large')
    expect((error as Error).message).toMatch(/^it decodes to about \d+ MiB: 1 samples, 1 frames, 20,000 locations, 1 functions, \d+ strings$/)
    expect(decodeProfile(bytes, { maxDecodedBytes: c.decodedBytes }).locations).toHaveLength(20_000)
  })

  it('a profile damaged early and over the decoded limit is refused for its size, as when the census came first', () => {
    // A sample whose location id has wire type 5, then a whole profile.
    const bad = Buffer.concat([Buffer.from([0x12, 0x02, 0x0d, 0x00]), raw('synth-medium.pb.gz')])
    expect(() => decodeProfile(bad, { maxDecodedBytes: 200_000 })).toThrow(/^it decodes to about \d+ MiB: 8,001 samples, [\d,]+ frames, 3,000 locations/)
    // Within the limit, the damage is what is wrong.
    expect(() => decodeProfile(bad, { maxDecodedBytes: 1 << 30 })).toThrow(/^not a valid pprof profile: field sample.location_id has wire type 5 at byte 3$/)
  })

  it('a damaged profile is counted up to the damage and the decoder says what is wrong', () => {
    const bytes = raw('synth-edge.pb')
    const cut = bytes.subarray(0, Math.floor(bytes.length / 2))
    expect(profileCensus(cut).decodedBytes).toBeLessThanOrEqual(profileCensus(bytes).decodedBytes)
    expect(() => decodeProfile(cut, { maxDecodedBytes: 1 << 30 })).toThrow(/truncated|malformed|not a valid/)
  })
})
