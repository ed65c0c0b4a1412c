import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { MASK, Redactor } from '../../src/snapshot/redact.js'
import { fuzzLimits, TERMINAL_CONTROLS } from '../helpers/fuzz.js'

/*
 * Redaction, generated: pathological inputs for its patterns (what would backtrack), secrets cut anywhere by
 * --tail or followed line by line, deep nesting and inherited names. Each property stops after its time budget
 * (test/helpers/fuzz.ts); FUZZ_SCALE=20 hunts longer.
 */
const limits = (runs: number) => fuzzLimits(runs, 6_000)
/** Pieces of the redaction patterns' markers: joined at random, they make inputs that would backtrack. */
const MARKERS = [
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----END RSA PRIVATE KEY-----',
  '"priv_key": {',
  '"value": "',
  '"type": "tendermint/PrivKeyEd25519"',
  '}',
  'token=',
  'authToken: ',
  'eyJ',
  '.',
  '-',
  'hvs.',
  'Bearer ',
  'https://u:',
  '@',
  'abandon ',
  'ability ',
  ' ',
  '\t',
  '\n',
  'a',
  'A1b2C3d4',
  '2026-11-22T10:00:00.123Z ',
]
const hostileText = fc
  .array(fc.oneof(fc.constantFrom(...MARKERS, ...TERMINAL_CONTROLS), fc.string({ maxLength: 6 })), { maxLength: 40 })
  .map((parts) => parts.join(''))
/** The same text repeated: what makes a backtracking pattern quadratic. */
const pathological = fc
  .tuple(fc.array(fc.constantFrom(...MARKERS), { minLength: 1, maxLength: 4 }), fc.integer({ min: 100, max: 1500 }))
  .map(([parts, times]) => parts.join('').repeat(times))

const BODY = ['MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7', 'Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3Bx']
const PRIV = 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2Vj'
const SECRETS: { lines: string[]; secrets: string[] }[] = [
  { lines: ['-----BEGIN PRIVATE KEY-----', ...BODY, '-----END PRIVATE KEY-----'], secrets: BODY },
  { lines: ['  "priv_key": {', '    "type": "tendermint/PrivKeyEd25519",', `    "value": "${PRIV}"`, '  }'], secrets: [PRIV] },
  { lines: ['rpc_servers = "https://user:Pa55word99@rpc.example:443"'], secrets: ['Pa55word99'] },
]
const leaked = (text: string, secrets: string[]) => secrets.some((secret) => text.includes(secret))

describe('fuzz: redaction', () => {
  it('pathological marker runs are masked in one pass, in bounded time', () => {
    let cases = 0
    fc.assert(
      fc.property(pathological, (text) => {
        cases++
        expect(typeof new Redactor().text(text)).toBe('string')
      }),
      limits(150),
    )
    expect(cases).toBeGreaterThan(10)
  })

  it('a secret block among hostile lines, cut anywhere by --tail or followed line by line, never shows', () => {
    let cases = 0
    fc.assert(
      fc.property(fc.array(hostileText, { maxLength: 4 }), fc.array(hostileText, { maxLength: 4 }), fc.nat(), fc.nat(), (before, after, which, cut) => {
        cases++
        const secret = SECRETS[which % SECRETS.length]
        const lines = [...before.join('\n').split('\n'), ...secret.lines, ...after.join('\n').split('\n')]
        const start = before.join('\n').split('\n').length
        // --tail: the cut lands anywhere up to the last line of the block.
        const from = cut % (start + secret.lines.length)
        expect(leaked(new Redactor().text(lines.slice(from).join('\n')), secret.secrets)).toBe(false)
        const mask = new Redactor().stream()
        expect(leaked(lines.map((line) => mask(line)).join('\n'), secret.secrets)).toBe(false)
      }),
      limits(3000),
    )
    expect(cases).toBeGreaterThan(100)
  })

  it('nesting of any depth and inherited names (__proto__, constructor, toString) walk without a throw or a change', () => {
    const key = fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'name', 'value', 'data', 'token')
    let cases = 0
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5_000 }), fc.array(key, { minLength: 1, maxLength: 5 }), fc.boolean(), (depth, keys, arrays) => {
        cases++
        // Built as JSON.parse builds it (own properties, __proto__ included), without JSON's recursion.
        let input: unknown = 'leaf'
        for (let i = 0; i < depth; i++) {
          if (arrays && i % 2) input = [input]
          else input = Object.defineProperty({}, keys[i % keys.length], { value: input, enumerable: true, writable: true, configurable: true })
        }
        const out = new Redactor().value(input)
        // Walked back down side by side: a value under "token" is masked, every key and level is as it was.
        let [a, b] = [input, out]
        for (let level = 0; level < depth; level++) {
          const key = Array.isArray(a) ? '0' : Object.keys(a as object)[0]
          const same = Array.isArray(b) === Array.isArray(a) && Object.keys(b as object).join() === key && Object.getPrototypeOf(b) === Object.getPrototypeOf(a)
          if (!same) expect.fail(`level ${level} of ${depth} changed shape`)
          ;[a, b] = [(a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]]
        }
        // The innermost level (i = 0) is always an object under keys[0].
        expect(b).toBe(keys[0] === 'token' ? MASK : a)
        expect(({} as Record<string, unknown>).leaf).toBeUndefined()
      }),
      limits(200),
    )
    expect(cases).toBeGreaterThan(10)
  })
})
