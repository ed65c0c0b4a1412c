/*
 * Builds small profile.proto byte strings for tests, with full control
 * over the encoding (packed or not, negative int64, wide ids) that a
 * general encoder would not give.
 */

import { decodeProfile } from '../../../src/pprof/decode.js'

export class ProtoWriter {
  bytes: number[] = []

  varint(v: number | bigint): this {
    let x = BigInt.asUintN(64, BigInt(v))
    while (x >= 0x80n) {
      this.bytes.push(Number(x & 0x7fn) | 0x80)
      x >>= 7n
    }
    this.bytes.push(Number(x))
    return this
  }

  key(field: number, wire: number): this {
    return this.varint((field << 3) | wire)
  }

  int(field: number, v: number | bigint): this {
    if (v === 0 || v === 0n) return this
    return this.key(field, 0).varint(v)
  }

  message(field: number, inner: ProtoWriter | Uint8Array): this {
    const data = inner instanceof ProtoWriter ? inner.bytes : Array.from(inner)
    this.key(field, 2).varint(data.length)
    this.bytes.push(...data)
    return this
  }

  string(field: number, s: string): this {
    return this.message(field, new TextEncoder().encode(s))
  }

  packed(field: number, vs: readonly (number | bigint)[], packed = true): this {
    if (!packed) {
      for (const v of vs) this.key(field, 0).varint(v)
      return this
    }
    const inner = new ProtoWriter()
    for (const v of vs) inner.varint(v)
    return this.message(field, inner)
  }

  done(): Uint8Array {
    return Uint8Array.from(this.bytes)
  }
}

export interface ProfileSpec {
  sampleTypes: [string, string][]
  defaultSampleType?: string
  /** Location id -> function names, innermost (inlined) first. [] = no lines. */
  locations: Record<number, string[]>
  /** Stacks are location ids, leaf first. */
  samples: { stack: (number | bigint)[]; values: (number | bigint)[] }[]
  mappingFile?: string
  /** Write repeated fields unpacked, as some encoders do. */
  unpacked?: boolean
  dropFrames?: string
}

/** Encodes a ProfileSpec; function ids are assigned by first use of a name. */
export function buildProfile(spec: ProfileSpec): Uint8Array {
  // Maps, not indexOf: a test of many names (tens of thousands) would take minutes.
  const strings: string[] = ['']
  const stringIndex = new Map([['', 0]])
  const str = (s: string): number => {
    let i = stringIndex.get(s)
    if (i === undefined) stringIndex.set(s, (i = strings.push(s) - 1))
    return i
  }
  const w = new ProtoWriter()
  for (const [type, unit] of spec.sampleTypes) w.message(1, new ProtoWriter().int(1, str(type)).int(2, str(unit)))
  for (const s of spec.samples) {
    w.message(2, new ProtoWriter().packed(1, s.stack, !spec.unpacked).packed(2, s.values, !spec.unpacked))
  }
  w.message(
    3,
    new ProtoWriter()
      .int(1, 1)
      .int(5, str(spec.mappingFile ?? '/bin/app'))
      .int(7, 1),
  )
  const functions: string[] = []
  const functionIndex = new Map<string, number>()
  for (const [id, names] of Object.entries(spec.locations)) {
    const loc = new ProtoWriter().int(1, BigInt(id)).int(2, 1)
    for (const name of names) {
      let f = functionIndex.get(name)
      if (f === undefined) functionIndex.set(name, (f = functions.push(name) - 1))
      loc.message(4, new ProtoWriter().int(1, f + 1).int(2, 10))
    }
    w.message(4, loc)
  }
  functions.forEach((name, i) =>
    w.message(
      5,
      new ProtoWriter()
        .int(1, i + 1)
        .int(2, str(name))
        .int(3, str(name)),
    ),
  )
  const tail = new ProtoWriter()
  if (spec.dropFrames) tail.int(7, str(spec.dropFrames))
  if (spec.defaultSampleType) tail.int(14, str(spec.defaultSampleType))
  for (const s of strings) w.string(6, s)
  w.bytes.push(...tail.bytes)
  return w.done()
}

/** A CPU profile decoded: `samples` as [stack of location ids, leaf first; sample count], 10 ms a sample. */
export const cpuProfile = (locations: ProfileSpec['locations'], samples: [number[], number][], extra: Partial<ProfileSpec> = {}) =>
  decodeProfile(
    buildProfile({
      sampleTypes: [
        ['samples', 'count'],
        ['cpu', 'nanoseconds'],
      ],
      locations,
      samples: samples.map(([stack, n]) => ({ stack, values: [n, n * 10_000_000] })),
      ...extra,
    }),
  )
