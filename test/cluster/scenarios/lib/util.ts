import { createHash } from 'node:crypto'

/** RFC3339 with second precision, as the apiserver writes metav1.Time. */
export function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}

/** RFC3339 with microseconds, as metav1.MicroTime (events.k8s.io eventTime). */
export function microTime(d: Date): string {
  return d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

export function ago(now: Date, seconds: number): Date {
  return new Date(now.getTime() - seconds * 1000)
}

export const MIN = 60
export const HOUR = 3600
export const DAY = 86400

/** FNV-1a 64 over a string, as a decimal uint64 string (shape of cosmopilot's config hash). */
export function fnv64Decimal(s: string): string {
  let h = 0xcbf29ce484222325n
  const prime = 0x100000001b3n
  for (const b of Buffer.from(s, 'utf8')) {
    h ^= BigInt(b)
    h = (h * prime) & 0xffffffffffffffffn
  }
  return h.toString(10)
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex')
}

/** 40 hex chars: a CometBFT node ID. */
export function nodeId(seed: string): string {
  return sha256Hex(`node-key/${seed}`).slice(0, 40)
}

export function upperHex(seed: string, len = 64): string {
  return sha256Hex(seed).slice(0, len).toUpperCase()
}

const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789'

/** Deterministic apimachinery-style random suffix (`rand.String`). */
export function k8sSuffix(seed: string, len = 5): string {
  const h = createHash('sha256').update(seed).digest()
  let out = ''
  for (let i = 0; i < len; i++) out += SUFFIX_ALPHABET[h[i] % SUFFIX_ALPHABET.length]
  return out
}

/** pod-template-hash style (10 chars of the same alphabet). */
export function templateHash(seed: string): string {
  return k8sSuffix(`template/${seed}`, 10)
}

/** Event object name as client-go builds it: `<involved>.<hex unix nanos>`. */
export function eventName(involved: string, at: Date, salt: string): string {
  const nanos = BigInt(at.getTime()) * 1_000_000n + BigInt(parseInt(sha256Hex(salt).slice(0, 6), 16) % 1_000_000)
  return `${involved}.${nanos.toString(16)}`
}

/** `YYYYMMDDhhmmss` UTC, the operator's snapshot timestamp format. */
export function snapshotStamp(d: Date): string {
  return d.toISOString().replace(/[-:T]/g, '').slice(0, 14)
}

export function uuidFrom(seed: string): string {
  const h = sha256Hex(`uuid/${seed}`)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/** Heights advance about one block per 6 s on the simulated chains. */
export const BLOCK_SECONDS = 6

export function heightAt(baseHeight: number, baseTime: Date, at: Date): number {
  return baseHeight + Math.floor((at.getTime() - baseTime.getTime()) / 1000 / BLOCK_SECONDS)
}
