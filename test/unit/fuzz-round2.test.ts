import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { decodeProfile } from '../../src/pprof/decode.js'
import { renderTop } from '../../src/pprof/format.js'
import { topTable } from '../../src/pprof/top.js'
import { renderDoctorJunit } from '../../src/render/doctor-junit.js'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { renderDoctorText } from '../../src/render/doctor-text.js'
import { plainPalette } from '../../src/render/palette.js'
import { MASK, Redactor } from '../../src/snapshot/redact.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { guarded } from '../../src/util/output.js'
import { smallSnapshot } from '../helpers/hostile.js'
import { buildProfile } from './pprof/build-profile.js'
import { editable } from '../helpers/bundles.js'

/*
 * The classes of issue 31 (security round 2), generated: pathological inputs for the redaction patterns,
 * secrets cut anywhere, deep nesting, inherited names, and control characters in every field of the file
 * kinds a stranger sends (objects, Events, logs, probes.json, profiles). Each property stops after
 * TIME_LIMIT_MS so the suite stays within its budget; FUZZ_SCALE=20 hunts longer.
 */
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1)
const TIME_LIMIT_MS = 6_000 * SCALE
const limits = (runs: number) => ({ numRuns: runs * SCALE, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false })

// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/
const CONTROLS = ['\u001b]52;c;cHduZWQ=\u0007', '\u001b[2J', '\r', '\u202e', '\u009b1m', '\u0000', '\u007f', '\u2066', '\u0008']
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
const hostileText = fc.array(fc.oneof(fc.constantFrom(...MARKERS, ...CONTROLS), fc.string({ maxLength: 6 })), { maxLength: 40 }).map((parts) => parts.join(''))
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

describe('fuzz round 2: redaction', () => {
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

describe('fuzz round 2: control characters in every field reach no output raw', () => {
  const rules = selectRules({})
  const control = fc.array(fc.oneof(fc.constantFrom(...CONTROLS), fc.string({ maxLength: 4 })), { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''))

  it('objects, Events, logs and probes.json: text and Markdown guarded, JUnit well-formed enough to parse', async () => {
    const { XMLValidator } = await import('fast-xml-parser')
    let cases = 0
    fc.assert(
      fc.property(fc.array(control, { minLength: 12, maxLength: 12 }), (f) => {
        cases++
        const snapshot: Snapshot = smallSnapshot()
        const [node, pod, event] = editable(snapshot)
        node.metadata.labels = { 'worker-name': f[0] }
        node.metadata.annotations = { [f[1]]: f[2] }
        node.status = { phase: f[3], message: f[4] }
        pod.status!.containerStatuses[0].state.terminated.message = f[5]
        event.reason = f[6]
        event.message = f[7]
        snapshot.logs[0].text = `${f[8]}\n${f[9]}\n`
        snapshot.probes = [{ kind: 'chain', namespace: 'ns', pod: 'node-0', target: f[10], ok: false, detail: f[11], at: snapshot.collectedAt }]
        snapshot.source = { context: f[0], server: f[1] }
        const result = diagnose([snapshot], rules, 'fuzz')
        for (const text of [renderDoctorText(result, plainPalette), renderDoctorMarkdown(result)]) expect(guarded(text, 'text', false)).not.toMatch(RAW)
        const junit = guarded(renderDoctorJunit(result, 'warning'), 'xml')
        expect(junit).not.toMatch(RAW)
        expect(XMLValidator.validate(junit)).toBe(true)
      }),
      limits(300),
    )
    expect(cases).toBeGreaterThan(20)
  })

  it('profiles: function, file, sample-type and mapping names', () => {
    let cases = 0
    fc.assert(
      fc.property(fc.array(control, { minLength: 5, maxLength: 5 }), (f) => {
        cases++
        const profile = buildProfile({
          sampleTypes: [
            [`samples${f[0]}`, 'count'],
            [`cpu${f[1]}`, 'nanoseconds'],
          ],
          locations: { 1: [`main.${f[2]}`], 2: [`main.${f[3]}`] },
          samples: [
            { stack: [1, 2], values: [2, 20_000_000] },
            { stack: [2], values: [1, 10_000_000] },
          ],
          mappingFile: f[4],
        })
        expect(guarded(renderTop(topTable(decodeProfile(profile), {})), 'text', false)).not.toMatch(RAW)
      }),
      limits(500),
    )
    expect(cases).toBeGreaterThan(20)
  })
})
