/**
 * The WebSocket frames a port-forward writes: every length RFC 6455 encodes (7 bits, 16 bits, 64 bits; a local
 * connection forwarded byte for byte can write a chunk longer than 16 bits say), each masked, each read back whole.
 */
import { describe, expect, it } from 'vitest'
import { frame, readFrame } from '../../src/cluster/port-tunnel.js'

/** The frame as the API server reads it: its mask taken off (readFrame reads the server's frames, which have none). */
function unmasked(bytes: Buffer): Buffer {
  const lengthBits = bytes[1] & 0x7f
  const maskAt = lengthBits === 127 ? 10 : lengthBits === 126 ? 4 : 2
  const mask = bytes.subarray(maskAt, maskAt + 4)
  const payload = Buffer.from(bytes.subarray(maskAt + 4).map((byte, i) => byte ^ mask[i % 4]))
  const header = Buffer.from(bytes.subarray(0, maskAt))
  header[1] &= 0x7f
  return Buffer.concat([header, payload])
}

describe('port-forward frames', () => {
  for (const length of [0, 125, 126, 65_535, 65_536, 200_000]) {
    it(`a ${length}-byte payload is one masked binary frame that reads back whole`, () => {
      const payload = Buffer.from(Array.from({ length }, (_, i) => (i * 31) & 0xff))
      const bytes = frame(payload)
      expect(bytes[0]).toBe(0x82)
      expect(bytes[1] & 0x80).toBe(0x80)
      const read = readFrame(unmasked(bytes))
      expect(read?.opcode).toBe(2)
      expect(read?.payload.equals(payload)).toBe(true)
      expect(read?.size).toBe(unmasked(bytes).length)
    })
  }

  it('a frame not whole yet is not read', () => {
    const bytes = unmasked(frame(Buffer.alloc(70_000, 7)))
    expect(readFrame(bytes.subarray(0, bytes.length - 1))).toBeUndefined()
    expect(readFrame(bytes.subarray(0, 5))).toBeUndefined()
  })
})
