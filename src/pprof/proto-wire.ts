import { ProfileFormatError } from './errors.js'

/*
 * The protobuf wire format, as profile.proto uses it: varints (one reader of them, exact up to 2^53), length-delimited
 * fields, packed repeated fields, and skipping what is not read. The profile's messages (proto-reader.ts) and the
 * census that weighs a whole profile (proto-census.ts) both read through it.
 */

export const WIRE_VARINT = 0
export const WIRE_I64 = 1
export const WIRE_LEN = 2
export const WIRE_I32 = 5
const TWO_32 = 4294967296

/** A position in protobuf bytes; every read is bounded by the end of the message it is in. */
export class WireReader {
  pos = 0

  constructor(readonly buf: Uint8Array) {}

  truncated(): never {
    throw new ProfileFormatError(
      'truncated-protobuf',
      `truncated profile: the protobuf data ends in the middle of a field (at byte ${this.pos} of ${this.buf.length}); the download was probably cut short`,
    )
  }

  invalid(why: string): never {
    throw new ProfileFormatError('invalid-protobuf', `not a valid pprof profile: ${why} at byte ${this.pos}`)
  }

  /** Reads a varint as an unsigned 64-bit integer (exact up to 2^53). */
  uvarint(end: number): number {
    return this.varint64(end, false)
  }

  /** Reads a varint as a two's-complement signed 64-bit integer (int64 fields). */
  varint(end: number): number {
    return this.varint64(end, true)
  }

  varint64(end: number, signed: boolean): number {
    const buf = this.buf
    let pos = this.pos
    if (pos >= end) this.truncated()
    let b = buf[pos++]!
    if (b < 0x80) {
      this.pos = pos
      return b
    }
    let lo = b & 0x7f
    for (let shift = 7; shift < 28; shift += 7) {
      if (pos >= end) this.truncated()
      b = buf[pos++]!
      lo |= (b & 0x7f) << shift
      if (b < 0x80) {
        this.pos = pos
        return lo
      }
    }
    if (pos >= end) this.truncated()
    b = buf[pos++]!
    lo = (lo | ((b & 0x0f) << 28)) >>> 0
    let hi = (b & 0x7f) >> 4
    if (b >= 0x80) {
      for (let shift = 3; ; shift += 7) {
        if (shift > 31) {
          this.pos = pos
          this.invalid('varint longer than 10 bytes')
        }
        if (pos >= end) this.truncated()
        b = buf[pos++]!
        hi |= (b & 0x7f) << shift
        if (b < 0x80) break
      }
    }
    this.pos = pos
    return (signed ? hi | 0 : hi >>> 0) * TWO_32 + lo
  }

  skip(wire: number, end: number): void {
    switch (wire) {
      case WIRE_VARINT:
        this.uvarint(end)
        return
      case WIRE_I64:
        this.pos += 8
        break
      case WIRE_LEN: {
        const n = this.uvarint(end)
        this.pos += n
        break
      }
      case WIRE_I32:
        this.pos += 4
        break
      default:
        this.invalid(`unsupported wire type ${wire}`)
    }
    if (this.pos > end) this.truncated()
  }

  /** Returns the end offset of a length-delimited field starting at pos. */
  len(end: number): number {
    const n = this.uvarint(end)
    const stop = this.pos + n
    if (stop > end) this.truncated()
    return stop
  }

  expect(wire: number, want: number, field: string): void {
    if (wire !== want) this.invalid(`field ${field} has wire type ${wire}, expected ${want}`)
  }

  /** Repeated varint field, packed or not; calls push for each element. */
  repeated(wire: number, end: number, push: (v: number) => void, signed: boolean): void {
    if (wire === WIRE_LEN) {
      const stop = this.len(end)
      while (this.pos < stop) push(signed ? this.varint(stop) : this.uvarint(stop))
    } else if (wire === WIRE_VARINT) {
      push(signed ? this.varint(end) : this.uvarint(end))
    } else {
      this.invalid(`repeated field has wire type ${wire}`)
    }
  }
}
