import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { gunzipSync, gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { UserError } from '../../src/util/errors.js'
import { readLimits, type ReadLimits } from '../../src/util/limits.js'
import { decodeProfile } from '../../src/pprof/decode.js'
import { ProfileFormatError, ProfileUsageError } from '../../src/pprof/errors.js'
import { renderTop } from '../../src/pprof/format.js'
import { topTable } from '../../src/pprof/top.js'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { renderDoctorText } from '../../src/render/doctor-text.js'
import { plainPalette } from '../../src/render/palette.js'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { readBundle } from '../../src/snapshot/bundle.js'
import { bundleFiles, tgz, type TarEntry } from '../helpers/hostile.js'

/*
 * Generated hostile inputs through the real readers: valid bundles and profiles, mutated. Each case
 * must end in a result or in an input error of one line; nothing may be written outside the
 * temporary folder, nothing left behind, and memory must stay bounded. Seeds are fixed per run of
 * fast-check's default (random) seed; a failure prints the seed and the shrunk case to replay.
 */

// CI runs these many; a longer hunt: FUZZ_SCALE=20 npx vitest run test/unit/fuzz-readers.test.ts (found the
// line break in a GNU long name that split a refusal over two lines, at 9,679 bundles).
const SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1)
const BUNDLE_RUNS = 1200 * SCALE
const PROFILE_RUNS = 2000 * SCALE
/** Low limits, so that "odd sizes" cross them within a few kilobytes. */
const LIMITS: ReadLimits = { ...readLimits({}), bundleBytes: 256 * 1024, entryBytes: 64 * 1024, entries: 64, logBytes: 16 * 1024, profileBytes: 4 << 20 }
const MEMORY_BOUND = 1024 * 1024 * 1024
/** Each property stops after this long even if its runs are not done, so a slow CI machine stays within a minute. */
const TIME_LIMIT_MS = 25_000 * SCALE

const work = mkdtempSync(path.join(tmpdir(), 'fuzz-'))
const outside = path.join(work, 'outside')
mkdirSync(outside)
afterAll(() => rmSync(work, { recursive: true, force: true }))

type Files = Record<string, string | Buffer>

const HOSTILE_PATHS = [
  '../outside/x',
  '../../../../../../etc/passwd',
  '/dev/zero',
  '/etc/passwd',
  'logs/../../outside/y',
  '',
  '.',
  'logs',
  'logs/',
  '\0',
  'a\\..\\..\\b',
  `${'a/'.repeat(300)}x`,
  'resources',
]

/** Every path to a value inside a JSON document, found without recursion. */
function jsonPaths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = []
  const stack: [unknown, (string | number)[]][] = [[root, []]]
  while (stack.length) {
    const [value, at] = stack.pop()!
    out.push(at)
    if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) stack.push([inner, [...at, Array.isArray(value) ? Number(key) : key]])
  }
  return out
}

function setAt(root: unknown, at: (string | number)[], value: unknown): unknown {
  if (at.length === 0) return value
  let parent = root as Record<string | number, unknown>
  for (const key of at.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  parent[at.at(-1)!] = value
  return root
}

type Mutation = (files: Files) => void

function parsed(content: string | Buffer | undefined): unknown {
  try {
    return JSON.parse(String(content))
  } catch {
    return undefined
  }
}

const jsonNames = (files: Files) =>
  Object.keys(files)
    .filter((name) => name.endsWith('.json'))
    .sort()
const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined)

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  // A value of the wrong type anywhere in any JSON file.
  fc.tuple(fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 2 })).map(([file, at, value]): Mutation => (files) => {
    const name = pick(jsonNames(files), file)
    const doc = name ? parsed(files[name]) : undefined
    if (!name || doc === undefined) return
    files[name] = JSON.stringify(setAt(doc, pick(jsonPaths(doc), at)!, value))
  }),
  // A missing file.
  fc.nat().map(
    (n): Mutation =>
      (files) =>
        void delete files[pick(Object.keys(files).sort(), n)!],
  ),
  // A hostile path where the bundle names a file.
  fc.oneof(fc.constantFrom(...HOSTILE_PATHS), fc.string({ maxLength: 40 })).map((file): Mutation => (files) => {
    const index = parsed(files['logs/index.json'] ?? '[]') as { file?: string }[]
    if (!Array.isArray(index) || !index[0] || typeof index[0] !== 'object') return
    index[0].file = file
    files['logs/index.json'] = JSON.stringify(index)
  }),
  // Odd sizes: cut short, empty, random bytes, or far too big.
  fc
    .tuple(fc.nat(), fc.oneof(fc.constant('cut' as const), fc.constant('huge' as const), fc.uint8Array({ maxLength: 64 })))
    .map(([n, how]): Mutation => (files) => {
      const name = pick(Object.keys(files).sort(), n)
      if (!name) return
      const content = Buffer.from(files[name])
      files[name] =
        how === 'cut' ? content.subarray(0, n % (content.length + 1)) : how === 'huge' ? Buffer.alloc(80 * 1024 + (n % 300_000), 0x20) : Buffer.from(how)
    }),
  // formatVersion of any kind.
  fc.jsonValue({ maxDepth: 1 }).map((value): Mutation => (files) => {
    const manifest = parsed(files['manifest.json'] ?? '{}') as { formatVersion?: unknown } | undefined
    if (!manifest || typeof manifest !== 'object') return
    manifest.formatVersion = value
    files['manifest.json'] = JSON.stringify(manifest)
  }),
  // Many files.
  fc.integer({ min: 1, max: 100 }).map((count): Mutation => (files) => {
    for (let i = 0; i < count; i++) files[`resources/ns/Kind${i}.json`] = '[]'
  }),
)

const TYPES = ['0', '1', '2', '3', '4', '5', '6', '7', 'x', 'g', 'L', 'K', 'Z']
const hostileEntry: fc.Arbitrary<TarEntry> = fc.record({
  name: fc.oneof(fc.constantFrom(...HOSTILE_PATHS.map((p) => (p.startsWith('/') || p.startsWith('.') ? p : `top/${p}`))), fc.string({ maxLength: 60 })),
  type: fc.constantFrom(...TYPES),
  content: fc.oneof(fc.string({ maxLength: 200 }), fc.constant('19 path=../../escape\n')),
  size: fc.option(fc.oneof(fc.nat(), fc.constant(2 ** 33)), { nil: undefined }),
  linkname: fc.option(fc.constantFrom('/etc/passwd', '../../outside'), { nil: undefined }),
  badChecksum: fc.boolean(),
})

/** Mostly absent: each of these alone makes a bundle unreadable, and valid results must be common too. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

const bundleCase = fc.record({
  mutations: fc.array(mutation, { minLength: 0, maxLength: 3 }),
  form: fc.constantFrom('folder', 'tgz'),
  extra: fc.oneof({ weight: 4, arbitrary: fc.constant([]) }, { weight: 1, arbitrary: fc.array(hostileEntry, { minLength: 1, maxLength: 2 }) }),
  link: rarely(fc.nat()),
  cut: rarely(fc.nat()),
})

type BundleCase = typeof bundleCase extends fc.Arbitrary<infer T> ? T : never

let made = 0
function materialise(c: BundleCase): string {
  const files: Files = bundleFiles()
  for (const mutate of c.mutations) mutate(files)
  const base = path.join(work, `case-${made++}`)
  if (c.form === 'folder') {
    for (const [name, content] of Object.entries(files)) {
      const full = path.join(base, name)
      mkdirSync(path.dirname(full), { recursive: true })
      writeFileSync(full, content)
    }
    mkdirSync(base, { recursive: true })
    if (c.link !== undefined) {
      const name = pick(Object.keys(files).sort(), c.link)
      if (name) {
        rmSync(path.join(base, name), { force: true })
        symlinkSync(c.link % 2 ? outside : '/etc/passwd', path.join(base, name))
      }
    }
    return base
  }
  const entries: TarEntry[] = [...Object.entries(files).map(([name, content]) => ({ name: `top/${name}`, content: Buffer.from(content) })), ...c.extra]
  let archive = tgz(entries)
  if (c.cut !== undefined) archive = archive.subarray(0, 2 + (c.cut % archive.length))
  writeFileSync(`${base}.tgz`, archive)
  return `${base}.tgz`
}

const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`chainnode-read-${process.pid}-`))

function oneLine(error: unknown): void {
  expect(error instanceof UserError || error instanceof ProfileFormatError || error instanceof ProfileUsageError, String((error as Error)?.stack)).toBe(true)
  expect((error as Error).message).not.toContain('\n')
  expect((error as Error).message.length).toBeGreaterThan(0)
}

describe('fuzz: generated hostile bundles through the real reader', () => {
  it(
    `${BUNDLE_RUNS} mutated bundles end in a result or one line of input error`,
    async () => {
      const rules = selectRules({})
      let results = 0
      let cases = 0
      await fc.assert(
        fc.asyncProperty(bundleCase, async (c) => {
          cases++
          const source = materialise(c)
          try {
            const snapshot = await readBundle(source, LIMITS)
            const result = diagnose([snapshot], rules, source)
            // A rule that throws on what the reader let through is a gap in the shape checks.
            expect(result.clusters[0].report.ruleErrors).toEqual([])
            renderDoctorText(result, plainPalette)
            renderDoctorMarkdown(result)
            results++
          } catch (error) {
            oneLine(error)
            expect((error as UserError).exitCode).toBe(2)
          } finally {
            rmSync(source, { recursive: true, force: true })
          }
          expect(leftovers()).toEqual([])
          expect(readdirSync(outside)).toEqual([])
          expect(process.memoryUsage().rss).toBeLessThan(MEMORY_BOUND)
        }),
        { numRuns: BUNDLE_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      )
      // The generator must not only make broken bundles: some mutations leave a readable one.
      console.log(`fuzz: ${results} of ${cases} generated bundles read, the others refused with one line`)
      expect(cases).toBeGreaterThan(100)
      expect(results).toBeGreaterThan(cases / 10)
    },
    120_000 * SCALE,
  )
})

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/pprof')
const profiles = readdirSync(FIXTURES)
  // The real Go profiles: small, so that many cases fit in the time of a CI run.
  .filter((name) => name.startsWith('go-') && name.endsWith('.pb.gz'))
  .map((name) => readFileSync(path.join(FIXTURES, name)))
// And a bomb: a small gzip that unpacks to more than the limit.
profiles.push(gzipSync(Buffer.alloc(LIMITS.profileBytes + 1)))

const profileCase = fc.record({
  profile: fc.nat(),
  gunzipped: fc.boolean(),
  edits: fc.array(fc.tuple(fc.nat(), fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constant('cut' as const), fc.uint8Array({ maxLength: 16 }))), {
    maxLength: 4,
  }),
  regzip: fc.boolean(),
})

describe('fuzz: generated hostile profiles through the real decoder', () => {
  it(
    `${PROFILE_RUNS} mutated and truncated profiles end in a table or one line of input error`,
    () => {
      let tables = 0
      let cases = 0
      fc.assert(
        fc.property(profileCase, (c) => {
          cases++
          const original = pick(profiles, c.profile)!
          let bytes = Buffer.from(c.gunzipped ? gunzipSync(original) : original)
          for (const [at, edit] of c.edits) {
            const i = bytes.length ? at % bytes.length : 0
            if (edit === 'cut') bytes = bytes.subarray(0, i)
            else if (typeof edit === 'number') bytes[i] = edit
            else bytes = Buffer.concat([bytes.subarray(0, i), edit, bytes.subarray(i)])
          }
          if (c.regzip && c.gunzipped) bytes = gzipSync(bytes)
          try {
            renderTop(topTable(decodeProfile(bytes, { maxBytes: LIMITS.profileBytes }), {}))
            tables++
          } catch (error) {
            oneLine(error)
          }
        }),
        { numRuns: PROFILE_RUNS, interruptAfterTimeLimit: TIME_LIMIT_MS, markInterruptAsFailure: false },
      )
      console.log(`fuzz: ${tables} of ${cases} generated profiles summarised, the others refused with one line`)
      expect(cases).toBeGreaterThan(100)
      expect(tables).toBeGreaterThan(cases / 20)
    },
    120_000 * SCALE,
  )
})
