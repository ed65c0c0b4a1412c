import { ProfileFormatError } from './errors.js'
import { censusText, DECODED_COST, profileCensus } from './proto-census.js'
import { WIRE_LEN, WIRE_VARINT, WireReader } from './proto-wire.js'
import type { Profile, ProfileFunction, ProfileLine, ProfileLocation, ProfileMapping, SampleTable, ValueType } from './types.js'

/*
 * A focused reader for uncompressed profile.proto (field numbers from
 * github.com/google/pprof/proto/profile.proto). It exists for speed:
 * a 10 MB gzipped CPU profile holds ~20 MB of protobuf and millions of
 * frames, and decoding it into one JS object per sample is what makes
 * generic decoders slow. Stacks and values go straight into typed arrays;
 * string, mapping, function and location ids are resolved once at the end,
 * with the same validity rules as google/pprof's postDecode + CheckValid.
 */

interface RawLine {
  functionId: number
  line: number
  column: number
}

interface RawLocation {
  id: number
  mappingId: number
  address: number
  lines: RawLine[]
  isFolded: boolean
}

interface RawFunction {
  id: number
  name: number
  systemName: number
  filename: number
  startLine: number
}

interface RawMapping {
  id: number
  start: number
  limit: number
  offset: number
  file: number
  buildId: number
  flags: number
}

/** The profile message: samples straight into typed arrays, the other messages as raw records resolved at the end. */
class Reader extends WireReader {
  /**
   * Location ids of all samples less one (id 0 wraps around to 2^32 - 1), so that where the ids are 1..n, what Go
   * writes, they are the location indexes already: no second pass over millions of frames.
   */
  ids: Uint32Array
  idCount = 0
  /** The largest of `ids` (as unsigned), -1 before the first. */
  maxIdLessOne = -1
  /** Set once an id does not fit in 32 bits; the ids themselves are kept here instead. */
  wideIds: Float64Array | undefined
  values: Float64Array
  valueCount = 0
  sampleStart: Uint32Array
  sampleCount = 0
  valuesPerSample = -1
  sampleTypes: number[] = []
  strings: string[] = []
  mappings: RawMapping[] = []
  locations: RawLocation[] = []
  functions: RawFunction[] = []
  scalars = {
    dropFrames: 0,
    keepFrames: 0,
    timeNanos: 0,
    durationNanos: 0,
    periodType: [] as number[],
    period: 0,
    comments: [] as number[],
    defaultSampleType: 0,
    docUrl: 0,
  }
  private readonly text: TextDecoder = new TextDecoder('utf-8')

  /** What the records decoded so far weigh in memory, apart from the samples (DECODED_COST). */
  private recordBytes = 0

  /**
   * `capacity`: the bytes the profile has: room for that many location ids, one a byte at the least, without a pass
   * to count them first (memory never written is never touched, so costs nothing). The values and sample starts get
   * room for one every 8 and 16 bytes, more than a CPU profile has, and grow past it (a copy of them stays behind as
   * garbage at the peak).
   */
  constructor(
    buf: Uint8Array,
    capacity: number,
    private readonly maxDecodedBytes: number,
  ) {
    super(buf)
    this.ids = new Uint32Array(Math.max(16, capacity))
    this.values = new Float64Array(Math.max(16, capacity >>> 3))
    this.sampleStart = new Uint32Array(Math.max(16, capacity >>> 4))
  }

  /** What the profile decoded so far takes in memory, as profileCensus counts it for the whole profile. */
  decodedBytes(): number {
    return this.sampleCount * DECODED_COST.sample + this.idCount * DECODED_COST.frame + this.valueCount * DECODED_COST.value + this.recordBytes
  }

  pushId(id: number): void {
    if (this.wideIds === undefined && id > 0xffffffff) {
      this.wideIds = Float64Array.from(this.ids.subarray(0, this.idCount), (v) => (v + 1) >>> 0)
    }
    if (this.wideIds !== undefined) {
      if (this.idCount === this.wideIds.length) this.wideIds = grow(this.wideIds, this.idCount + 1)
      this.wideIds[this.idCount++] = id
      return
    }
    if (this.idCount === this.ids.length) this.ids = grow(this.ids, this.idCount + 1)
    const index = (id - 1) >>> 0
    this.ids[this.idCount++] = index
    if (index > this.maxIdLessOne) this.maxIdLessOne = index
  }

  pushValue(v: number): void {
    if (this.valueCount === this.values.length) this.values = grow(this.values, this.valueCount + 1)
    this.values[this.valueCount++] = v
  }

  /** Packed location ids: the hot loop of the whole decoder. */
  packedIds(stop: number): void {
    const buf = this.buf
    while (this.wideIds === undefined) {
      // Ids of one or two bytes (up to 16383 locations) are inlined here.
      let ids = this.ids
      let n = this.idCount
      let pos = this.pos
      let max = this.maxIdLessOne
      while (pos < stop) {
        const b0 = buf[pos]!
        if (n === ids.length) ids = this.ids = grow(ids, n + 1)
        if (b0 < 0x80) {
          const index = (b0 - 1) >>> 0
          ids[n++] = index
          if (index > max) max = index
          pos++
          continue
        }
        const b1 = buf[pos + 1]!
        if (pos + 1 >= stop || b1 >= 0x80) break
        // Two bytes (0 too, written 80 00 by a stranger, wraps around).
        const index = (((b0 & 0x7f) | (b1 << 7)) - 1) >>> 0
        ids[n++] = index
        if (index > max) max = index
        pos += 2
      }
      this.idCount = n
      this.pos = pos
      this.maxIdLessOne = max
      if (pos >= stop) return
      this.pushId(this.uvarint(stop))
    }
    while (this.pos < stop) this.pushId(this.uvarint(stop))
  }

  sample(end: number): void {
    const valuesBefore = this.valueCount
    if (this.sampleCount + 1 >= this.sampleStart.length) this.sampleStart = grow(this.sampleStart, this.sampleCount + 2)
    this.sampleStart[this.sampleCount] = this.idCount
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      switch (tag >>> 3) {
        case 1:
          if (wire === WIRE_LEN) this.packedIds(this.len(end))
          else if (wire === WIRE_VARINT) this.pushId(this.uvarint(end))
          else this.invalid(`field sample.location_id has wire type ${wire}`)
          break
        case 2:
          if (wire === WIRE_LEN) {
            const stop = this.len(end)
            while (this.pos < stop) this.pushValue(this.varint(stop))
          } else if (wire === WIRE_VARINT) this.pushValue(this.varint(end))
          else this.invalid(`field sample.value has wire type ${wire}`)
          break
        default:
          this.skip(wire, end) // labels (3) and unknown fields
      }
    }
    const n = this.valueCount - valuesBefore
    if (this.valuesPerSample === -1) this.valuesPerSample = n
    else if (n !== this.valuesPerSample) {
      throw new ProfileFormatError(
        'invalid-profile',
        `malformed profile: sample ${this.sampleCount} has ${n} values but earlier samples have ${this.valuesPerSample}`,
      )
    }
    this.sampleCount++
  }

  valueType(end: number): number[] {
    const out = [0, 0]
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const field = tag >>> 3
      if ((field === 1 || field === 2) && (tag & 7) === WIRE_VARINT) out[field - 1] = this.varint(end)
      else this.skip(tag & 7, end)
    }
    return out
  }

  mapping(end: number): RawMapping {
    const m: RawMapping = { id: 0, start: 0, limit: 0, offset: 0, file: 0, buildId: 0, flags: 0 }
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      const field = tag >>> 3
      if (field < 1 || field > 10 || wire !== WIRE_VARINT) {
        this.skip(wire, end)
        continue
      }
      const v = field === 5 || field === 6 ? this.varint(end) : this.uvarint(end)
      switch (field) {
        case 1:
          m.id = v
          break
        case 2:
          m.start = v
          break
        case 3:
          m.limit = v
          break
        case 4:
          m.offset = v
          break
        case 5:
          m.file = v
          break
        case 6:
          m.buildId = v
          break
        default:
          if (v !== 0) m.flags |= 1 << (field - 7)
      }
    }
    return m
  }

  line(end: number): RawLine {
    const l: RawLine = { functionId: 0, line: 0, column: 0 }
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      const field = tag >>> 3
      if (wire !== WIRE_VARINT || field < 1 || field > 3) this.skip(wire, end)
      else if (field === 1) l.functionId = this.uvarint(end)
      else if (field === 2) l.line = this.varint(end)
      else l.column = this.varint(end)
    }
    return l
  }

  location(end: number): RawLocation {
    const l: RawLocation = { id: 0, mappingId: 0, address: 0, lines: [], isFolded: false }
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      switch (tag >>> 3) {
        case 1:
          this.expect(wire, WIRE_VARINT, 'location.id')
          l.id = this.uvarint(end)
          break
        case 2:
          this.expect(wire, WIRE_VARINT, 'location.mapping_id')
          l.mappingId = this.uvarint(end)
          break
        case 3:
          this.expect(wire, WIRE_VARINT, 'location.address')
          l.address = this.uvarint(end)
          break
        case 4:
          this.expect(wire, WIRE_LEN, 'location.line')
          l.lines.push(this.line(this.len(end)))
          break
        case 5:
          this.expect(wire, WIRE_VARINT, 'location.is_folded')
          l.isFolded = this.uvarint(end) !== 0
          break
        default:
          this.skip(wire, end)
      }
    }
    return l
  }

  function(end: number): RawFunction {
    const f: RawFunction = { id: 0, name: 0, systemName: 0, filename: 0, startLine: 0 }
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      const field = tag >>> 3
      if (wire !== WIRE_VARINT || field < 1 || field > 5) {
        this.skip(wire, end)
        continue
      }
      const v = field === 1 ? this.uvarint(end) : this.varint(end)
      if (field === 1) f.id = v
      else if (field === 2) f.name = v
      else if (field === 3) f.systemName = v
      else if (field === 4) f.filename = v
      else f.startLine = v
    }
    return f
  }

  string(stop: number): string {
    const buf = this.buf
    let ascii = true
    for (let i = this.pos; i < stop; i++) {
      if (buf[i]! >= 0x80) {
        ascii = false
        break
      }
    }
    let s: string
    if (ascii && stop - this.pos < 256) s = String.fromCharCode.apply(null, buf.subarray(this.pos, stop) as unknown as number[])
    else s = this.text.decode(buf.subarray(this.pos, stop))
    this.pos = stop
    return s
  }

  /** Decodes the top-level fields; throws DecodedTooLarge once what it decoded weighs more than maxDecodedBytes. */
  profile(): void {
    const end = this.buf.length
    const sc = this.scalars
    while (this.pos < end) {
      const tag = this.uvarint(end)
      const wire = tag & 7
      const field = tag >>> 3
      switch (field) {
        case 1:
          this.expect(wire, WIRE_LEN, 'sample_type')
          this.sampleTypes.push(...this.valueType(this.len(end)))
          break
        case 2:
          this.expect(wire, WIRE_LEN, 'sample')
          this.sample(this.len(end))
          break
        case 3:
          this.expect(wire, WIRE_LEN, 'mapping')
          this.mappings.push(this.mapping(this.len(end)))
          this.recordBytes += DECODED_COST.mapping
          break
        case 4:
          this.expect(wire, WIRE_LEN, 'location')
          this.locations.push(this.location(this.len(end)))
          this.recordBytes += DECODED_COST.location + this.locations[this.locations.length - 1]!.lines.length * DECODED_COST.line
          break
        case 5:
          this.expect(wire, WIRE_LEN, 'function')
          this.functions.push(this.function(this.len(end)))
          this.recordBytes += DECODED_COST.function
          break
        case 6: {
          this.expect(wire, WIRE_LEN, 'string_table')
          const stop = this.len(end)
          this.recordBytes += DECODED_COST.string + stop - this.pos
          this.strings.push(this.string(stop))
          break
        }
        case 11:
          this.expect(wire, WIRE_LEN, 'period_type')
          sc.periodType = this.valueType(this.len(end))
          break
        case 13:
          this.repeated(wire, end, (v) => sc.comments.push(v), true)
          break
        case 7:
        case 8:
        case 9:
        case 10:
        case 12:
        case 14:
        case 15: {
          this.expect(wire, WIRE_VARINT, `#${field}`)
          const v = this.varint(end)
          if (field === 7) sc.dropFrames = v
          else if (field === 8) sc.keepFrames = v
          else if (field === 9) sc.timeNanos = v
          else if (field === 10) sc.durationNanos = v
          else if (field === 12) sc.period = v
          else if (field === 14) sc.defaultSampleType = v
          else sc.docUrl = v
          break
        }
        default:
          if (field === 0) this.invalid('field number 0')
          this.skip(wire, end)
      }
      if (this.decodedBytes() > this.maxDecodedBytes) throw new DecodedTooLarge()
    }
  }
}

/** Thrown by Reader.profile past the decoded limit; readProfileProto says by how much, from a census of the whole profile. */
class DecodedTooLarge extends Error {}

function grow<T extends Uint32Array | Float64Array>(a: T, need: number): T {
  let size = Math.max(16, a.length * 2)
  while (size < need) size *= 2
  const b = new (a.constructor as new (n: number) => T)(size)
  b.set(a)
  return b
}

function malformed(why: string): never {
  throw new ProfileFormatError('invalid-profile', `malformed profile: ${why}`)
}

/** Builds id -> index lookup (`dense` when the ids are 1..n, what Go writes: they need no map). */
function indexById(ids: number[], what: string): ((id: number) => number) & { dense: boolean } {
  let dense = true
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] === 0) malformed(`found ${what} with reserved id 0`)
    if (ids[i] !== i + 1) dense = false
  }
  if (dense) {
    const n = ids.length
    return Object.assign((id: number) => (id >= 1 && id <= n ? id - 1 : -1), { dense })
  }
  const map = new Map<number, number>()
  ids.forEach((id, i) => {
    if (map.has(id)) malformed(`multiple ${what}s with the same id ${id}`)
    map.set(id, i)
  })
  return Object.assign((id: number) => map.get(id) ?? -1, { dense })
}

/** The first id less one (Reader.ids) out of the range 0..n-1: the unknown location a sample refers to. */
function unknownLocation(idsLessOne: Uint32Array, n: number): never {
  const index = idsLessOne.findIndex((v) => v >= n)
  malformed(`a sample refers to unknown location id ${(idsLessOne[index]! + 1) >>> 0}`)
}

/**
 * Decodes uncompressed profile.proto bytes. Throws ProfileFormatError; with `maxDecodedBytes`, code
 * 'decoded-too-large' as soon as what it decoded weighs more (memory stays bounded), naming what made it large.
 */
export function readProfileProto(buf: Uint8Array, maxDecodedBytes = Infinity): Profile {
  const r = new Reader(buf, buf.length, maxDecodedBytes)
  try {
    r.profile()
  } catch (error) {
    // Over the limit is said first, as when the census came before decoding: a damaged profile that is also too
    // large is refused for its size.
    const sizes = error instanceof DecodedTooLarge || maxDecodedBytes < Infinity ? profileCensus(buf) : undefined
    if (sizes === undefined || (!(error instanceof DecodedTooLarge) && sizes.decodedBytes <= maxDecodedBytes)) throw error
    throw new ProfileFormatError('decoded-too-large', `it decodes to about ${Math.ceil(sizes.decodedBytes / 2 ** 20)} MiB: ${censusText(sizes)}`)
  }
  return resolve(r)
}

/** The profile from its decoded records: strings, mappings, functions and locations resolved, ids checked. */
function resolve(r: Reader): Profile {
  const strings = r.strings
  const str = (i: number): string => {
    if (i < 0 || i >= strings.length || !Number.isInteger(i)) malformed(`string index ${i} is out of range`)
    return strings[i]!
  }
  if (strings.length === 0) malformed('it has no string table')
  if (strings[0] !== '') malformed('the string table does not start with ""')

  const sampleTypes: ValueType[] = []
  for (let i = 0; i < r.sampleTypes.length; i += 2) {
    sampleTypes.push({ type: str(r.sampleTypes[i]!), unit: str(r.sampleTypes[i + 1]!) })
  }
  if (r.sampleCount > 0 && sampleTypes.length === 0) malformed('missing sample type information')
  if (r.sampleCount > 0 && r.valuesPerSample !== sampleTypes.length) {
    malformed(`samples have ${r.valuesPerSample} values but there are ${sampleTypes.length} sample types`)
  }

  const mappings: ProfileMapping[] = r.mappings.map((m) => ({
    id: m.id,
    start: m.start,
    limit: m.limit,
    offset: m.offset,
    file: str(m.file),
    buildId: str(m.buildId),
    hasFunctions: (m.flags & 1) !== 0,
    hasFilenames: (m.flags & 2) !== 0,
    hasLineNumbers: (m.flags & 4) !== 0,
    hasInlineFrames: (m.flags & 8) !== 0,
  }))
  const mappingIndex = indexById(
    r.mappings.map((m) => m.id),
    'mapping',
  )

  const functions: ProfileFunction[] = r.functions.map((f) => ({
    id: f.id,
    name: str(f.name),
    systemName: str(f.systemName),
    filename: str(f.filename),
    startLine: f.startLine,
  }))
  const functionIndex = indexById(
    r.functions.map((f) => f.id),
    'function',
  )

  const locations: ProfileLocation[] = r.locations.map((l) => ({
    id: l.id,
    // An unknown mapping id leaves the location without a mapping, as in Go.
    mappingIndex: l.mappingId === 0 ? -1 : mappingIndex(l.mappingId),
    address: l.address,
    isFolded: l.isFolded,
    lines: l.lines.map((ln): ProfileLine => {
      const fi = ln.functionId === 0 ? -1 : functionIndex(ln.functionId)
      if (fi < 0) malformed(`location ${l.id} has a line with ${ln.functionId === 0 ? 'no' : `unknown (${ln.functionId})`} function`)
      return { functionIndex: fi, line: ln.line, column: ln.column }
    }),
  }))
  const locationIndex = indexById(
    r.locations.map((l) => l.id),
    'location',
  )

  const n = r.idCount
  // Location ids become location indexes in place: a second array of frames would double the largest table. Dense
  // ids (1..n) are the indexes already, read less one.
  const stacks = r.wideIds === undefined ? r.ids.subarray(0, n) : new Uint32Array(n)
  if (r.wideIds === undefined && locationIndex.dense) {
    if (r.maxIdLessOne >= r.locations.length) unknownLocation(stacks, r.locations.length)
  } else
    for (let i = 0; i < n; i++) {
      const id = r.wideIds === undefined ? (stacks[i]! + 1) >>> 0 : r.wideIds[i]!
      const li = locationIndex(id)
      if (li < 0) malformed(`a sample refers to unknown location id ${id}`)
      stacks[i] = li
    }
  const locationStart = new Uint32Array(r.sampleCount + 1)
  locationStart.set(r.sampleStart.subarray(0, r.sampleCount))
  locationStart[r.sampleCount] = n
  const samples: SampleTable = {
    count: r.sampleCount,
    locationStart,
    locationIndex: stacks,
    values: r.values.subarray(0, r.valueCount),
  }

  const sc = r.scalars
  return {
    sampleTypes,
    defaultSampleType: str(sc.defaultSampleType),
    samples,
    locations,
    functions,
    mappings,
    dropFrames: str(sc.dropFrames),
    keepFrames: str(sc.keepFrames),
    timeNanos: sc.timeNanos,
    durationNanos: sc.durationNanos,
    periodType: sc.periodType.length === 2 ? { type: str(sc.periodType[0]!), unit: str(sc.periodType[1]!) } : undefined,
    period: sc.period,
    comments: sc.comments.map(str),
    docUrl: str(sc.docUrl),
  }
}
