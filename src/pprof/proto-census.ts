import { WIRE_LEN, WireReader } from './proto-wire.js'

/** How many of each thing a profile holds, counted without decoding it, and what they take in memory once decoded. */
export interface ProfileCensus {
  samples: number
  /** Location ids in all samples' stacks. */
  frames: number
  values: number
  locations: number
  lines: number
  functions: number
  mappings: number
  strings: number
  stringBytes: number
  decodedBytes: number
}

/**
 * Bytes per decoded item, measured on Node 20 (64-bit) through `pprof top` (its per-location tables included): a
 * frame is a Uint32 and a value a Float64; locations,
 * their lines, functions and mappings are objects held twice while they are resolved (raw and final); a string
 * is its characters and a header.
 */
export const DECODED_COST = { sample: 8, frame: 4, value: 8, location: 400, line: 160, function: 176, mapping: 224, string: 40 } as const

/**
 * A linear pass over the top-level fields (and the location ids and values of samples) that counts what the
 * decoder would build: memory is bounded by what the profile decodes to, not by its size on disk (1 byte of
 * location id is 4 bytes of frame; 4 bytes of location are 256 bytes of objects). The decoder weighs what it
 * decoded as it goes (the same costs) and stops past the limit; this count of the whole profile then says how large
 * it is and what made it so. A damaged profile stops the count where it breaks; the decoder then says what is wrong.
 */
export function profileCensus(buf: Uint8Array): ProfileCensus {
  const c = { samples: 0, frames: 0, values: 0, locations: 0, lines: 0, functions: 0, mappings: 0, strings: 0, stringBytes: 0 }
  const wire = new WireReader(buf)
  const end = buf.length
  const varint = (stop: number): number => wire.uvarint(stop)
  /** Varints in a packed run: one per byte without the continuation bit. */
  const packed = (stop: number): number => {
    let n = 0
    for (let pos = wire.pos; pos < stop; pos++) n += (buf[pos]! >>> 7) ^ 1
    wire.pos = Math.max(wire.pos, stop)
    return n
  }
  const skip = (type: number, stop: number): void => wire.skip(type, stop)
  /** Counts repeated field `field` (packed or not) inside a message ending at stop. */
  const within = (stop: number, count: (field: number, wire: number, stop: number) => boolean): void => {
    while (wire.pos < stop) {
      const tag = varint(stop)
      if (!count(tag >>> 3, tag & 7, stop)) skip(tag & 7, stop)
    }
  }
  try {
    while (wire.pos < end) {
      const tag = varint(end)
      const field = tag >>> 3
      const type = tag & 7
      if (type !== WIRE_LEN || field < 2 || field > 6) {
        skip(type, end)
        continue
      }
      const length = varint(end)
      const stop = wire.pos + length
      if (stop > end) break
      if (field === 2) {
        c.samples++
        // The hot loop of the census (a sample per stack): the ids and values of one sample, inline.
        while (wire.pos < stop) {
          const tag = varint(stop)
          const f = tag >>> 3
          if (f !== 1 && f !== 2) {
            skip(tag & 7, stop)
            continue
          }
          let n = 1
          if ((tag & 7) === WIRE_LEN) {
            const length = varint(stop)
            n = packed(Math.min(stop, wire.pos + length))
          } else varint(stop)
          if (f === 1) c.frames += n
          else c.values += n
        }
      } else if (field === 4) {
        c.locations++
        within(stop, (f, w) => {
          if (f === 4 && w === WIRE_LEN) c.lines++
          return false
        })
      } else if (field === 3) c.mappings++
      else if (field === 5) c.functions++
      else {
        c.strings++
        c.stringBytes += stop - wire.pos
      }
      wire.pos = stop
    }
  } catch {
    // Counted up to the damage: the decoder reports it.
  }
  const decodedBytes =
    c.samples * DECODED_COST.sample +
    c.frames * DECODED_COST.frame +
    c.values * DECODED_COST.value +
    c.locations * DECODED_COST.location +
    c.lines * DECODED_COST.line +
    c.functions * DECODED_COST.function +
    c.mappings * DECODED_COST.mapping +
    c.strings * DECODED_COST.string +
    c.stringBytes
  return { ...c, decodedBytes }
}

/** "7,400,000 samples, 118,400,000 frames, 1,000 locations, 1,000 functions, 1,005 strings": what made it large. */
export function censusText(c: ProfileCensus): string {
  const n = (value: number) => value.toLocaleString('en-US')
  return `${n(c.samples)} samples, ${n(c.frames)} frames, ${n(c.locations)} locations, ${n(c.functions)} functions, ${n(c.strings)} strings`
}
