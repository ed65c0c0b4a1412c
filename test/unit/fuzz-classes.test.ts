import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import fc from 'fast-check'
import { dump } from 'js-yaml'
import { afterAll, describe, expect, it } from 'vitest'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { resolveContext } from '../../src/cluster/kubeconfig.js'
import { decodeProfile } from '../../src/pprof/decode.js'
import { ProfileFormatError, ProfileUsageError } from '../../src/pprof/errors.js'
import { filterSamples } from '../../src/pprof/filter.js'
import { renderTop } from '../../src/pprof/format.js'
import { topTable } from '../../src/pprof/top.js'
import { renderDoctorMarkdown } from '../../src/render/doctor-markdown.js'
import { renderDoctorText } from '../../src/render/doctor-text.js'
import { plainPalette } from '../../src/render/palette.js'
import { readBundle } from '../../src/snapshot/bundle.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { Snapshot } from '../../src/snapshot/types.js'
import { statusRows } from '../../src/analysis/status-model.js'
import { compareConfigs } from '../../src/analysis/config-diff.js'
import { timelines } from '../../src/app/timeline.js'
import { renderConfigDiff } from '../../src/render/config-hash.js'
import { renderStatusText } from '../../src/render/status.js'
import { renderTimeline } from '../../src/render/timeline.js'
import { parseLabelSelector, selectorMatches } from '../../src/snapshot/label-selector.js'
import { describeLogLine, logLineSummary } from '../../src/snapshot/log-format.js'
import { parseLogLine } from '../../src/timeline/log-line.js'
import { UserError } from '../../src/util/errors.js'
import { MAX_JSON_DEPTH } from '../../src/util/json-depth.js'
import { readLimits, type ReadLimits } from '../../src/util/limits.js'
import { guarded } from '../../src/util/output.js'
import { bundleFiles, writeBundleFolder } from '../helpers/hostile.js'
import { buildProfile, ProtoWriter } from './pprof/build-profile.js'
import { FUZZ_SCALE, fuzzLimits, RAW_CONTROL, TERMINAL_CONTROLS } from '../helpers/fuzz.js'

/*
 * Item 6 of issue 31, the classes fuzz-readers and fuzz-round2 did not reach: pathological inputs for the log-format
 * parsers, label selectors and --focus/--ignore; deep nesting in every bundle file; inherited names where keys come
 * from input; control characters in every string of every bundle file; random and mutated protobuf through the
 * profile census; random kubeconfig shapes. Each property stops after its time budget (test/helpers/fuzz.ts);
 * FUZZ_SCALE=20 hunts longer.
 */
// The suite's run is seeded, so CI is reproducible; FUZZ_SCALE hunts with fresh seeds.
const SEED = FUZZ_SCALE === 1 ? 20261126 : undefined
const limits = (runs: number) => fuzzLimits(runs, 5_000, SEED)
/**
 * One parse of a line of at most a few tens of kilobytes takes microseconds when linear; a backtracking pattern
 * takes seconds on the same input. Far above any scheduling noise, far below a quadratic parse.
 */
const ONE_CASE_MS = 1_500

const work = mkdtempSync(path.join(tmpdir(), 'fuzz-classes-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

// A newline and a non-character as well: every field and log line, not only terminal text.
const CONTROLS = [...TERMINAL_CONTROLS, '\n', '\ufffe']
const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__']

function oneLine(error: unknown, ...kinds: (abstract new (...args: never[]) => Error)[]): void {
  expect(
    kinds.some((kind) => error instanceof kind),
    String((error as Error)?.stack),
  ).toBe(true)
  expect((error as Error).message).not.toContain('\n')
  expect((error as Error).message.length).toBeGreaterThan(0)
}

function timed<T>(what: string, run: () => T): T {
  const start = performance.now()
  const result = run()
  const ms = performance.now() - start
  if (ms > ONE_CASE_MS) expect.fail(`${what} took ${Math.round(ms)} ms`)
  return result
}

/** Runs of these pieces are what would make a backtracking log or selector pattern quadratic or worse. */
const LOG_PIECES = [
  'level=',
  'level="',
  'msg="',
  'err=',
  '\\"',
  '"',
  '=',
  ' ',
  '\t',
  'a',
  'E',
  'I[2026-11-22|',
  '10:00:00.000',
  ']',
  'E1122 ',
  '10:00:00.000000 ',
  '1 ',
  'x.go:1] ',
  '{"level":"error","msg":"',
  '{',
  '}',
  'INF ',
  '2026-11-22T10:00:00Z ',
  '\u001b[31m',
  'k=v ',
  'panic',
]
const repeatedPieces = (pieces: string[], maxTimes: number) =>
  fc
    .tuple(
      fc.array(fc.constantFrom(...pieces), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 50, max: maxTimes }),
      fc.constantFrom('', '!', ')', '"', '\n'),
    )
    .map(([parts, times, end]) => parts.join('').repeat(times) + end)

describe('fuzz classes: pathological inputs for the parsers that read a stranger`s text or a flag', () => {
  it('log lines of repeated format markers are parsed in one pass, into strings', () => {
    let cases = 0
    fc.assert(
      fc.property(repeatedPieces(LOG_PIECES, 2_000), (line) => {
        cases++
        const parts = timed('describeLogLine', () => describeLogLine(line))
        expect(typeof parts.message).toBe('string')
        expect(typeof timed('logLineSummary', () => logLineSummary(line))).toBe('string')
        const parsed = timed('parseLogLine', () => parseLogLine(line))
        expect(typeof parsed.text).toBe('string')
      }),
      limits(200),
    )
    expect(cases).toBeGreaterThan(10)
  })

  it('label selectors of any text: a selector or one line of usage error, in bounded time', () => {
    const pieces = ['a', 'b.io/c', '=', '==', '!=', '!', ',', ' ', 'in', 'notin', '(', ')', '-', ...INHERITED]
    let cases = 0
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((parts) => parts.join('')),
          // A flag is at most an argument's length (128 KiB on Linux); a few thousand repeats are in reach.
          repeatedPieces(pieces, 1_500),
        ),
        (text) => {
          cases++
          try {
            const selector = timed('parseLabelSelector', () => parseLabelSelector(text))
            // Whatever it parsed, matching never consults inherited names.
            expect(typeof selectorMatches(selector, {})).toBe('boolean')
          } catch (error) {
            oneLine(error, UserError)
            expect((error as UserError).exitCode).toBe(2)
          }
        },
      ),
      limits(400),
    )
    expect(cases).toBeGreaterThan(20)
  })

  it('--focus and --ignore of any text: a filter or one line of usage error, over hostile function names', () => {
    const profile = decodeProfile(
      buildProfile({
        sampleTypes: [['cpu', 'nanoseconds']],
        locations: { 1: [`main.${'a'.repeat(3_000)}!`], 2: ['__proto__', 'constructor.toString'], 3: ['(((((((((('] },
        samples: [
          { stack: [1, 2], values: [20] },
          { stack: [3], values: [10] },
        ],
      }),
    )
    const regexPieces = ['a', '.', '*', '+', '?', '(', ')', '[', ']', '|', '\\', '(?i)', '(?P<n>', '{2}', '^', '$', '__proto__']
    let cases = 0
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.array(fc.constantFrom(...regexPieces), { maxLength: 12 }).map((parts) => parts.join('')),
        ),
        fc.boolean(),
        (source, asFocus) => {
          cases++
          try {
            const filtered = filterSamples(profile, asFocus ? { focus: source } : { ignore: source })
            expect(Array.isArray(filtered.active)).toBe(true)
          } catch (error) {
            oneLine(error, ProfileUsageError)
          }
        },
      ),
      limits(600),
    )
    expect(cases).toBeGreaterThan(50)
  })
})

/** A bundle folder from its files; each case its own, removed after. */
let made = 0
function writeBundle(files: Record<string, string>): string {
  return writeBundleFolder(path.join(work, `case-${made++}`), files)
}

const LIMITS: ReadLimits = { ...readLimits({}), entryBytes: 4 << 20 }
const RULES = selectRules({})

/** Reads, diagnoses and renders a bundle: a report or one line of input error; never a rule error or a throw elsewhere. */
async function throughTheTool(files: Record<string, string>): Promise<string | undefined> {
  const snapshot = await readOrRefuse(files)
  if (!snapshot) return undefined
  const result = diagnose([snapshot], RULES, 'fuzz-bundle')
  expect(result.clusters[0].report.ruleErrors).toEqual([])
  return renderDoctorText(result, plainPalette) + renderDoctorMarkdown(result)
}

/** Reads a bundle: the snapshot, or undefined after one line of input error (exit 2). */
async function readOrRefuse(files: Record<string, string>): Promise<Snapshot | undefined> {
  const source = writeBundle(files)
  try {
    return await readBundle(source, LIMITS)
  } catch (error) {
    oneLine(error, UserError)
    expect((error as UserError).exitCode).toBe(2)
    return undefined
  } finally {
    rmSync(source, { recursive: true, force: true })
  }
}

/** The path of every object (not list) in a JSON document, the root included, without recursion. */
function objectPaths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = []
  const stack: [unknown, (string | number)[]][] = [[root, []]]
  while (stack.length) {
    const [value, at] = stack.pop()!
    if (!value || typeof value !== 'object') continue
    if (!Array.isArray(value)) out.push(at)
    for (const [key, inner] of Object.entries(value)) stack.push([inner, [...at, Array.isArray(value) ? Number(key) : key]])
  }
  return out
}

/** Every string in a JSON document with its path, without recursion. */
function stringPaths(root: unknown): (string | number)[][] {
  const out: (string | number)[][] = []
  const stack: [unknown, (string | number)[]][] = [[root, []]]
  while (stack.length) {
    const [value, at] = stack.pop()!
    if (typeof value === 'string') out.push(at)
    else if (value && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) stack.push([inner, [...at, Array.isArray(value) ? Number(key) : key]])
  }
  return out
}

/** A bundle whose every file kind has strings to spoil: probes.json and history.json with an entry each. */
function fullBundleFiles(): Record<string, string> {
  const files = bundleFiles()
  const at = '2026-11-22T09:58:00.000Z'
  files['probes.json'] = JSON.stringify([
    { kind: 'chain', namespace: 'ns', pod: 'node-0', target: 'node-0:26657/status', ok: false, detail: 'connection refused', at },
  ])
  files['history.json'] = JSON.stringify([{ node: 'ns/node-0', at, podUid: 'p1', podHash: 'h1', configKeys: { 'config.toml': 'c1' } }])
  files['errors.json'] = JSON.stringify([{ what: 'list events in ns', namespace: 'ns', reason: 'forbidden', message: 'events is forbidden' }])
  // The server's table row and the node's rendered configuration: status and config-hash diff read them.
  files['tables/chainnodes.json'] = JSON.stringify([
    {
      namespace: 'ns',
      name: 'node-0',
      columns: [
        { name: 'Name', type: 'string', priority: 0 },
        { name: 'Status', type: 'string', priority: 0 },
        { name: 'Age', type: 'date', priority: 0 },
      ],
      cells: ['node-0', 'Running', '2026-11-20T10:00:00Z'],
    },
  ])
  files['resources/ns/ConfigMap.json'] = JSON.stringify([
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'node-0', namespace: 'ns' }, data: { 'config.toml': 'moniker = "node-0"\n[p2p]\nseeds = ""\n' } },
  ])
  return files
}

describe('fuzz classes: every bundle file kind', () => {
  const fileNames = Object.keys(fullBundleFiles())
    .filter((name) => name.endsWith('.json'))
    .sort()

  it('nesting 10 to 200,000 deep in any JSON file, at any value: a report or one line of input error', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.nat(),
        fc.oneof(fc.integer({ min: 10, max: MAX_JSON_DEPTH }), fc.integer({ min: MAX_JSON_DEPTH + 1, max: 200_000 })),
        fc.constantFrom('[', '{"a":'),
        async (file, at, depth, open) => {
          cases++
          const files = fullBundleFiles()
          const name = fileNames[file % fileNames.length]
          const deep = open.repeat(depth) + '1' + (open === '[' ? ']' : '}').repeat(depth)
          // The whole file, or one value inside it (JSON text spliced, so the parse meets the depth, not our builder).
          const paths = stringPaths(JSON.parse(files[name]))
          if (at % 3 === 0 || paths.length === 0) files[name] = deep
          else {
            const marker = '"@@deep@@"'
            const doc = JSON.parse(files[name]) as unknown
            let parent = doc as Record<string | number, unknown>
            const where = paths[at % paths.length]
            for (const key of where.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
            parent[where.at(-1)!] = '@@deep@@'
            files[name] = JSON.stringify(doc).replace(marker, deep)
          }
          const report = await throughTheTool(files)
          // Past the depth no reader of ours takes, the file is refused whole, wherever the deep value sits.
          if (depth > MAX_JSON_DEPTH) expect(report).toBeUndefined()
        },
      ),
      limits(60),
    )
    expect(cases).toBeGreaterThan(10)
  })

  it('a list 512 deep as a ChainNode phase is read (the node left out: a phase is text); one level more is refused (a hunt found rules overflowing at 3,215)', async () => {
    const withPhase = (depth: number) => {
      const files = fullBundleFiles()
      const chainNodes = JSON.parse(files['resources/ns/ChainNode.json']) as Record<string, Record<string, unknown>>[]
      chainNodes[0].status = { ...chainNodes[0].status, phase: '@@deep@@' }
      files['resources/ns/ChainNode.json'] = JSON.stringify(chainNodes).replace('"@@deep@@"', '['.repeat(depth) + '1' + ']'.repeat(depth))
      return files
    }
    // Three levels are the file's list, the object and its status.
    expect(await throughTheTool(withPhase(MAX_JSON_DEPTH - 3))).toMatch(/ChainNode node-0 .*left out: status\.phase should be a string, not a list/)
    expect(await throughTheTool(withPhase(MAX_JSON_DEPTH - 2))).toBeUndefined()
  })

  it('inherited names as label, annotation, data, field and container names, and as log fields and rule ids: no throw, nothing polluted', async () => {
    let cases = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...INHERITED), fc.nat(), async (name, where) => {
        cases++
        const files = fullBundleFiles()
        const chainNodes = JSON.parse(files['resources/ns/ChainNode.json']) as Record<string, Record<string, unknown>>[]
        const pods = JSON.parse(files['resources/ns/Pod.json']) as Record<string, Record<string, unknown>>[]
        // Defined as JSON.parse defines them: own properties, __proto__ included.
        const own = (value: unknown) => JSON.parse(`{${JSON.stringify(name)}:${JSON.stringify(value)}}`) as Record<string, unknown>
        switch (where % 6) {
          case 0:
            chainNodes[0].metadata.labels = own('x')
            break
          case 1:
            chainNodes[0].metadata.annotations = own({ nested: 1 })
            break
          case 2:
            chainNodes[0].status = own('Running')
            break
          case 3:
            ;(pods[0].spec.containers as { name: string }[])[0].name = name
            ;(pods[0].status.containerStatuses as { name: string }[])[0].name = name
            break
          case 4:
            chainNodes[0].spec = { config: { override: own({ [name]: 'x' }) } }
            break
          default:
            files['logs/ns/node-0/node-utils.log'] = `${JSON.stringify({ level: name, msg: name, [name]: name })}\nlevel=${name} ${name}=1 msg=x\n`
        }
        // Raw JSON text keeps "__proto__" an own key, where JSON.stringify of a parsed object would too.
        files['resources/ns/ChainNode.json'] = JSON.stringify(chainNodes)
        files['resources/ns/Pod.json'] = JSON.stringify(pods)
        await throughTheTool(files)
        const parsed = parseLogLine(JSON.stringify({ level: name, msg: 'm' }))
        expect(['error', 'warning', 'normal', 'info', 'debug']).toContain(parsed.level)
        expect(describeLogLine(`level=${name} msg=m`).level ?? 'none').toMatch(/^(error|warning|info|debug|none)$/)
        expect(() => selectRules({ only: [name] })).toThrow(UserError)
        expect(selectorMatches(parseLabelSelector(name.replace(/^_+/, '')), {})).toBe(false)
        expect(Object.prototype).not.toHaveProperty('x')
        expect(Object.keys(Object.prototype)).toEqual([])
      }),
      limits(120),
    )
    expect(cases).toBeGreaterThan(20)
  })

  it('object-valued cells and keys named like inherited members, at any object of any JSON file: doctor, status, timeline and config-hash diff read them as data', async () => {
    let cases = 0
    let read = 0
    // JSON.parse makes them own keys, __proto__ included, as a stranger's file would.
    const hostileObject = fc.constantFrom(...INHERITED).map((name) => JSON.parse(`{${JSON.stringify(name)}:1,"toString":{"a":1},"valueOf":"x"}`) as unknown)
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), fc.constantFrom(...INHERITED), hostileObject, fc.boolean(), async (file, at, key, value, asCell) => {
        cases++
        const files = fullBundleFiles()
        // The table's cells as objects, or one more key (named like an inherited member) at any object of any file.
        const name = asCell ? 'tables/chainnodes.json' : fileNames[file % fileNames.length]
        const doc = JSON.parse(files[name]) as unknown
        if (asCell) for (const row of doc as { cells: unknown[] }[]) row.cells = row.cells.map(() => value)
        else {
          const objects = objectPaths(doc)
          const where = objects[at % objects.length]
          let target = doc as Record<string | number, unknown>
          for (const step of where) target = target[step] as Record<string | number, unknown>
          Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true })
        }
        files[name] = JSON.stringify(doc)
        const snapshot = await readOrRefuse(files)
        if (!snapshot) return
        read++
        const index = new SnapshotIndex(snapshot)
        const text = renderStatusText(index, statusRows(index), { withNamespace: true, wide: true })
        expect(text).not.toMatch(/\[object Object\]|function /)
        renderTimeline('text', timelines([snapshot], RULES, {}), plainPalette, true)
        for (const node of index.chainNodes()) {
          const comparison = compareConfigs({ snapshot, source: 'a' }, { snapshot, source: 'b' }, node.metadata.name)
          expect(renderConfigDiff(comparison)).not.toMatch(/undefined|\[object/)
        }
        expect(Object.keys(Object.prototype)).toEqual([])
      }),
      limits(120),
    )
    expect(cases).toBeGreaterThan(20)
    expect(read).toBeGreaterThan(0)
  })

  it('control characters in any string of any JSON file or log: text and Markdown show none raw', async () => {
    let cases = 0
    let reports = 0
    const control = fc.array(fc.oneof(fc.constantFrom(...CONTROLS), fc.string({ maxLength: 3 })), { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''))
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.nat(), fc.nat(), control), { minLength: 1, maxLength: 6 }), async (edits) => {
        cases++
        const files = fullBundleFiles()
        for (const [file, at, text] of edits) {
          const name = [...fileNames, 'logs/ns/node-0/node-utils.log'][file % (fileNames.length + 1)]
          if (name.endsWith('.log')) {
            files[name] = `${files[name]}${text}\n`
            continue
          }
          const doc = JSON.parse(files[name]) as unknown
          const paths = stringPaths(doc)
          if (paths.length === 0) continue
          const where = paths[at % paths.length]
          let parent = doc as Record<string | number, unknown>
          for (const key of where.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
          // Spliced into the value, so a field keeps the shape it needs (a time stays a time when the text is at its end).
          parent[where.at(-1)!] = `${String(parent[where.at(-1)!])}${text}`
          files[name] = JSON.stringify(doc)
        }
        const report = await throughTheTool(files)
        if (report === undefined) return
        reports++
        expect(guarded(report, 'text', false)).not.toMatch(RAW_CONTROL)
        // eslint-disable-next-line no-control-regex
        expect(guarded(report, 'text', true)).not.toMatch(/\u001b(?!\[[0-9;]*m)/)
      }),
      limits(150),
    )
    expect(cases).toBeGreaterThan(20)
    expect(reports).toBeGreaterThan(0)
  })
})

describe('fuzz classes: protobuf through the profile census', () => {
  /** Small enough that the census refuses what claims more: the path a 255 MiB profile in 1.9 MB takes. */
  const MAX_DECODED = 1 << 20
  const field = fc.oneof(
    fc.tuple(fc.integer({ min: 1, max: 14 }), fc.bigInt({ min: 0n, max: (1n << 64n) - 1n })).map(([f, v]) => new ProtoWriter().key(f, 0).varint(v).bytes),
    fc.tuple(fc.integer({ min: 1, max: 14 }), fc.uint8Array({ maxLength: 40 })).map(([f, bytes]) => new ProtoWriter().message(f, bytes).bytes),
    // A length that claims far more than follows.
    fc.tuple(fc.integer({ min: 1, max: 14 }), fc.integer({ min: 0, max: 2 ** 31 })).map(([f, n]) => new ProtoWriter().key(f, 2).varint(n).bytes),
    // Packed repeated varints of huge count: what makes the census count many samples or locations.
    fc.tuple(fc.constantFrom(2, 4), fc.integer({ min: 1, max: 400 })).map(([f, n]) => {
      const sample = new ProtoWriter()
      sample.message(1, new Uint8Array(n).fill(1))
      return new ProtoWriter().message(f, sample).bytes
    }),
  )

  /** Protobuf messages concatenate: fields after a valid profile are merged into it, so some cases stay profiles. */
  const valid = buildProfile({
    sampleTypes: [['cpu', 'nanoseconds']],
    locations: { 1: ['main.f'], 2: ['main.g'] },
    samples: [{ stack: [1, 2], values: [5] }],
  })

  it('random bytes and random fields end in a profile or one line of format error, within the decoded limit', () => {
    let cases = 0
    let profiles = 0
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.tuple(fc.boolean(), fc.array(field, { maxLength: 30 })).map(([after, fields]) => Uint8Array.from([...(after ? valid : []), ...fields.flat()])),
    )
    fc.assert(
      fc.property(bytes, (bytes) => {
        cases++
        try {
          const profile = decodeProfile(bytes, { maxDecodedBytes: MAX_DECODED })
          renderTop(topTable(profile, {}))
          profiles++
        } catch (error) {
          oneLine(error, ProfileFormatError, ProfileUsageError)
        }
      }),
      limits(3000),
    )
    expect(cases).toBeGreaterThan(200)
    expect(profiles).toBeGreaterThan(0)
  })

  it('a valid profile with inflated counts is refused by the census, not decoded', () => {
    let cases = 0
    fc.assert(
      fc.property(fc.integer({ min: 5_000, max: 40_000 }), fc.integer({ min: 1, max: 50 }), (samples, depth) => {
        cases++
        const stack = Array.from({ length: depth }, () => 1)
        const bytes = buildProfile({
          sampleTypes: [['cpu', 'nanoseconds']],
          locations: { 1: ['main.f'] },
          samples: Array.from({ length: samples }, () => ({ stack, values: [1] })),
        })
        try {
          decodeProfile(bytes, { maxDecodedBytes: 64 * 1024 })
          expect.fail(`${samples} samples of depth ${depth} decoded within 64 KiB`)
        } catch (error) {
          oneLine(error, ProfileFormatError)
          expect((error as ProfileFormatError).code).toBe('decoded-too-large')
        }
      }),
      limits(30),
    )
    expect(cases).toBeGreaterThan(5)
  })
})

describe('fuzz classes: kubeconfig contents', () => {
  const name = fc.oneof(fc.constantFrom('a', ...INHERITED), fc.string({ maxLength: 6 }))
  /** The shape kubectl writes, its names and values drawn from hostile ones: some resolve, the rest must refuse. */
  const wellShaped = fc
    .record({
      current: name,
      context: name,
      cluster: name,
      user: name,
      server: fc.oneof(fc.constant('https://127.0.0.1:6443'), fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 })),
      extra: fc.dictionary(name, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    })
    // Mostly one name for all four, so that the references hold and the case resolves.
    .chain((parts) => fc.boolean().map((same) => (same ? { ...parts, context: parts.current, cluster: parts.current, user: parts.current } : parts)))
    .map(({ current, context, cluster, user, server, extra }) =>
      dump({
        apiVersion: 'v1',
        kind: 'Config',
        'current-context': current,
        contexts: [{ name: context, context: { cluster, user, ...extra } }],
        clusters: [{ name: cluster, cluster: { server, ...extra } }],
        users: [{ name: user, user: { token: 'abc', ...extra } }],
      }),
    )
  const yamlText = fc.oneof(
    wellShaped,
    fc.jsonValue({ maxDepth: 4 }).map((value) => dump(value)),
    fc
      .record({
        'current-context': fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...INHERITED), fc.jsonValue({ maxDepth: 1 })),
        contexts: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.array(fc.record({ name: fc.constantFrom('a', ...INHERITED), context: fc.jsonValue({ maxDepth: 2 }) })),
        ),
        clusters: fc.oneof(
          fc.jsonValue({ maxDepth: 3 }),
          fc.array(fc.record({ name: fc.constantFrom('a', ...INHERITED), cluster: fc.jsonValue({ maxDepth: 2 }) })),
        ),
        users: fc.jsonValue({ maxDepth: 3 }),
      })
      .map((value) => dump(value)),
    fc.string({ maxLength: 80 }),
    fc
      .array(fc.constantFrom('a: ', '- ', '[', '{', '&x ', '*x', '!!binary ', '? ', '\t', '\n', '  ', '"', '\u0000', '<<: '), { maxLength: 30 })
      .map((parts) => parts.join('')),
  )

  it('any YAML shape: a context or one line of usage error (exit 2)', async () => {
    let cases = 0
    let resolved = 0
    const file = path.join(work, 'kubeconfig')
    await fc.assert(
      fc.asyncProperty(yamlText, async (text) => {
        cases++
        writeFileSync(file, text)
        try {
          const context = await resolveContext({ kubeconfig: file, env: {} })
          expect(typeof context.cluster.server).toBe('string')
          resolved++
        } catch (error) {
          oneLine(error, UserError)
          expect((error as UserError).exitCode).toBe(2)
        }
      }),
      limits(800),
    )
    console.log(`fuzz: ${resolved} of ${cases} generated kubeconfigs resolved, the others refused with one line`)
    expect(cases).toBeGreaterThan(50)
    expect(resolved).toBeGreaterThan(0)
  })
})
