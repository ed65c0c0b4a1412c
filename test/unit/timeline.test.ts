import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { plainPalette } from '../../src/render/palette.js'
import { renderTimelineMarkdown } from '../../src/render/timeline-markdown.js'
import { timelineJson } from '../../src/render/timeline-json.js'
import { renderTimelineText } from '../../src/render/timeline-text.js'
import { diagnose, selectRules } from '../../src/app/doctor.js'
import { timelines } from '../../src/app/timeline.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import { buildTimeline, chooseWindow, leadUp, DEFAULT_LEAD_IN_MS } from '../../src/timeline/build.js'
import { collapse, inWindow, MAX_ENTRY_CHARS, normaliseForGrouping } from '../../src/timeline/collapse.js'
import { parseLogLine, parseProblemLine } from '../../src/timeline/log-line.js'
import type { RawEntry, TimelineEntry } from '../../src/timeline/types.js'
import { schemaErrors } from '../helpers/schema.js'
import { findObject, loadBundle } from '../helpers/bundles.js'

const raw = (at: string, text: string, extra: Partial<RawEntry> = {}): RawEntry => ({
  at,
  source: 'log',
  kind: 'log/app',
  subject: { kind: 'Pod', namespace: 'ns', name: 'node-0/app' },
  level: 'error',
  text,
  ...extra,
})
const minute = (n: number) => new Date(Date.UTC(2026, 10, 22, 13, 0, 0) + n * 60_000).toISOString()

describe('grouping and collapsing', () => {
  it('treats lines that differ only in heights, hashes, ids and times as the same', () => {
    const a = normaliseForGrouping(
      'failed to apply block height=13807856 hash=5419393F3A191693 at 2026-11-22T13:05:37Z peer 0f3c9b1e-1111-4222-8333-944455556666',
    )
    const b = normaliseForGrouping(
      'failed to apply block height=13807901 hash=AA19393F3A1916FF at 2026-11-22T13:07:01.5Z peer 7e3c9b1e-1111-4222-8333-944455556666',
    )
    expect(a).toBe(b)
    expect(normaliseForGrouping('dial tcp 51.89.7.235:26656: i/o timeout')).not.toBe(normaliseForGrouping('dial tcp 51.89.7.235:26656: connection refused'))
  })

  it('collapses a line repeated 400 times into one entry with its count, first and last time, worded as the newest', () => {
    const lines = Array.from({ length: 400 }, (_, i) =>
      raw(new Date(Date.parse(minute(0)) + i * 1000).toISOString(), `consensus failure at height ${1000 + i}`),
    )
    const other = raw(minute(3), 'peer disconnected: EOF', { level: 'warning' })
    const entries = collapse([...lines.reverse(), other])
    expect(entries).toHaveLength(2)
    const repeated = entries.find((e) => e.count > 1)!
    expect(repeated).toMatchObject({
      count: 400,
      first: minute(0),
      last: new Date(Date.parse(minute(0)) + 399_000).toISOString(),
      text: 'consensus failure at height 1399',
    })
    expect(entries.map((e) => e.first)).toEqual([minute(0), minute(3)])
  })

  it('keeps the same message apart when it is about different objects or from different sources', () => {
    const entries = collapse([
      raw(minute(0), 'BackOff: restarting', { subject: { kind: 'Pod', name: 'a' } }),
      raw(minute(1), 'BackOff: restarting', { subject: { kind: 'Pod', name: 'b' } }),
      raw(minute(2), 'BackOff: restarting', { subject: { kind: 'Pod', name: 'a' }, source: 'event', kind: 'Event/BackOff' }),
    ])
    expect(entries).toHaveLength(3)
  })

  it('adds the server-side counts of repeated Events together', () => {
    const entries = collapse([
      raw(minute(0), 'Unhealthy: probe failed', { source: 'event', count: 3, last: minute(4) }),
      raw(minute(6), 'Unhealthy: probe failed', { source: 'event', count: 2, last: minute(8) }),
    ])
    expect(entries).toEqual([expect.objectContaining({ count: 5, first: minute(0), last: minute(8) })])
  })

  it('never loses or invents a repeat, and orders entries by their first time (property)', () => {
    const arbitraryEntry = fc.record({
      minute: fc.integer({ min: 0, max: 600 }),
      message: fc.constantFrom('timeout after 5s', 'timeout after 9s', 'peer gone', 'disk full'),
      subject: fc.constantFrom('a', 'b'),
      count: fc.integer({ min: 1, max: 5 }),
    })
    fc.assert(
      fc.property(fc.array(arbitraryEntry, { maxLength: 60 }), (items) => {
        const entries = collapse(items.map((i) => raw(minute(i.minute), i.message, { count: i.count, subject: { kind: 'Pod', name: i.subject } })))
        expect(entries.reduce((sum, e) => sum + e.count, 0)).toBe(items.reduce((sum, i) => sum + i.count, 0))
        for (const e of entries) expect(Date.parse(e.first)).toBeLessThanOrEqual(Date.parse(e.last))
        for (let i = 1; i < entries.length; i++) expect(Date.parse(entries[i - 1].first)).toBeLessThanOrEqual(Date.parse(entries[i].first))
        expect(new Set(entries.map((e) => `${e.subject.name}|${normaliseForGrouping(e.text)}`)).size).toBe(entries.length)
      }),
    )
  })
})

describe('log levels', () => {
  it.each([
    ['{"level":"error","ts":1,"msg":"reconcile failed","error":"context deadline exceeded"}', 'error', 'reconcile failed error=context deadline exceeded'],
    ['{"_msg":"dialing failed","level":"warn","err":"i/o timeout"}', 'warning', 'dialing failed err=i/o timeout'],
    ['time="2026-11-22T13:05:36Z" level=error msg="failed to get height" error="connection refused"', 'error', 'failed to get height error=connection refused'],
    ['time="2026-11-22T13:05:36Z" level=info msg="node is ready"', 'normal', 'node is ready'],
    ['E[2026-11-22|13:05:36.000] CONSENSUS FAILURE!!! module=consensus', 'error', 'CONSENSUS FAILURE!!! module=consensus'],
    ['WRN Stopping peer for error module=p2p', 'warning', 'Stopping peer for error module=p2p'],
    ['E1122 13:05:36.000000       1 leaderelection.go:340] error retrieving resource lock', 'error', 'error retrieving resource lock'],
    ['panic: runtime error: index out of range', 'error', 'panic: runtime error: index out of range'],
    ['an ordinary line mentioning no error level', 'normal', 'an ordinary line mentioning no error level'],
  ])('%s', (line, level, text) => {
    expect(parseLogLine(line)).toEqual({ level, text })
    expect(parseProblemLine(line)).toEqual(level === 'normal' ? undefined : { level, text })
  })

  // The cheap pre-check must never drop a line the full parse reads as an error or a warning.
  it('parseProblemLine keeps exactly the error and warning lines of parseLogLine (property)', () => {
    const level = fc.constantFrom(
      'error',
      'ERROR',
      'Err',
      'warn',
      'WARNING',
      'wrn',
      'fatal',
      'dpanic',
      'crit',
      'info',
      'debug',
      'E',
      'W',
      'I',
      '\\u0065rror',
      '\\u0077arn',
    )
    const word = fc.constantFrom(
      'msg',
      'failed',
      'block',
      'peer',
      'ok',
      'panic',
      'Fatal',
      'error',
      'E',
      'W',
      'F',
      'I[',
      'E[',
      'WRN',
      'ERR',
      'INF',
      'E1122',
      'W1122',
      'F1122',
    )
    const text = fc.array(word, { maxLength: 5 }).map((words) => words.join(' '))
    const lead = fc.constantFrom('', ' ', '\t', '\u00a0', '\ufeff')
    const line = fc.oneof(
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}{"level":"${v}","msg":"${t}"}`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}{"severity":"${v}","_msg":"${t}"}`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}{"level":["${v}"],"msg":"${t}"}`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}time="2026-11-22T13:05:36Z" level=${v} msg="${t}"`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}${v}[2026-11-22|13:05:36.000] ${t}`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}${v} ${t}`),
      fc.tuple(lead, level, text).map(([l, v, t]) => `${l}${v}1122 13:05:36.000000       1 file.go:1] ${t}`),
      fc.tuple(lead, text).map(([l, t]) => `${l}${t}`),
      fc.string(),
    )
    fc.assert(
      fc.property(line, (l) => {
        const full = parseLogLine(l)
        expect(parseProblemLine(l)).toEqual(full.level === 'normal' ? undefined : full)
      }),
      { numRuns: 2000 },
    )
  })
})

const entry = (first: string, kind: string, extra: Partial<TimelineEntry> = {}): TimelineEntry => ({
  first,
  last: first,
  count: 1,
  source: 'pod',
  kind,
  subject: { kind: 'Pod', name: 'node-0' },
  level: 'normal',
  text: kind,
  ...extra,
})

describe('window', () => {
  const now = minute(120)
  it('by default covers the last restart or the first finding, whichever is earlier, with a lead-in', () => {
    const entries = [entry(minute(10), 'pod-created'), entry(minute(30), 'pod-recreated'), entry(minute(50), 'rule/x', { source: 'finding' })]
    expect(chooseWindow(entries, now, {})).toEqual({ since: new Date(Date.parse(minute(30)) - DEFAULT_LEAD_IN_MS).toISOString(), until: now })
    const findingFirst = [entry(minute(60), 'pod-created'), entry(minute(40), 'rule/x', { source: 'finding' })]
    expect(chooseWindow(findingFirst, now, {}).since).toBe(new Date(Date.parse(minute(40)) - DEFAULT_LEAD_IN_MS).toISOString())
  })

  it('is the last hour when nothing restarted and nothing was found, and follows --since and --until', () => {
    expect(chooseWindow([], now, {})).toEqual({ since: minute(60), until: now })
    expect(chooseWindow([], now, { since: { ago: 2 * 3_600_000 } })).toEqual({ since: minute(0), until: now })
    expect(chooseWindow([], now, { since: { at: minute(5) }, until: { ago: 60_000 } })).toEqual({ since: minute(5), until: minute(119) })
  })

  it('keeps an entry when any of its repeats falls inside', () => {
    const window = { since: minute(10), until: minute(20) }
    expect(inWindow(entry(minute(0), 'x', { last: minute(12) }), window)).toBe(true)
    expect(inWindow(entry(minute(0), 'x', { last: minute(9) }), window)).toBe(false)
    expect(inWindow(entry(minute(21), 'x'), window)).toBe(false)
  })

  it('leads up to a finding with the entries before it', () => {
    const entries = [1, 2, 3, 4, 5, 6].map((n) => entry(minute(n), `e${n}`)).concat(entry(minute(7), 'rule/image-pull', { source: 'finding' }))
    expect(leadUp(entries, 'image-pull', 3).map((e) => e.kind)).toEqual(['e5', 'e6', 'rule/image-pull'])
    expect(leadUp(entries, 'not-syncing')).toEqual([])
  })
})

describe('the builder on a recorded bundle', () => {
  let recorded: Snapshot
  beforeAll(async () => {
    recorded = await loadBundle('config-change-restart')
  })

  /** The recorded scenario, plus what an incident adds: a crash, a failing gate, noisy logs, an events.k8s.io Event, earlier observations. */
  function incident(): Snapshot {
    const snapshot = structuredClone(recorded)
    const pod = findObject(snapshot, 'Pod', 'cfg-0')
    pod.status.containerStatuses[0] = {
      ...pod.status.containerStatuses[0],
      restartCount: 2,
      state: { running: { startedAt: '2026-11-22T13:12:00Z' } },
      lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: '2026-11-22T13:06:00Z', finishedAt: '2026-11-22T13:11:30Z' } },
    }
    pod.status.initContainerStatuses = [
      {
        name: 'wait-cosmosigner-discovery',
        restartCount: 0,
        state: { terminated: { exitCode: 1, reason: 'Error', message: 'no\nsigner', finishedAt: '2026-11-22T13:05:35Z' } },
      },
    ]
    const log = snapshot.logs.find((l) => l.pod === 'cfg-0' && l.container === 'app')!
    const noisy = Array.from(
      { length: 400 },
      (_, i) => `${new Date(Date.parse('2026-11-22T13:10:00Z') + i * 100).toISOString()} {"level":"error","_msg":"failed to commit height ${2000 + i}"}`,
    )
    log.text = `${log.text.trimEnd()}\n${noisy.join('\n')}\n`
    const event: KubeObject = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: 'cfg-0.new', namespace: 'sc-config-change-restart', creationTimestamp: '2026-11-22T13:11:00Z' },
      regarding: { kind: 'Pod', namespace: 'sc-config-change-restart', name: 'cfg-0', uid: pod.metadata.uid },
      eventTime: '2026-11-22T13:11:00.000000Z',
      series: { count: 6, lastObservedTime: '2026-11-22T13:15:00.000000Z' },
      type: 'Warning',
      reason: 'BackOff',
      note: 'Back-off restarting failed container app',
    }
    snapshot.objects.push(event)
    const hash = findObject(snapshot, 'ConfigMap', 'cfg-0').metadata.annotations!['cosmopilot.voluzi.com/config-hash']
    snapshot.observations = [
      {
        node: 'sc-config-change-restart/cfg-0',
        at: '2026-11-22T12:00:00Z',
        podUid: 'old-uid',
        podCreated: '2026-11-20T00:00:00Z',
        podHash: '1',
        configMapHash: '1',
      },
      {
        node: 'sc-config-change-restart/cfg-0',
        at: '2026-11-22T13:04:59Z',
        podUid: 'old-uid',
        podCreated: '2026-11-20T00:00:00Z',
        podHash: '1',
        configMapHash: hash,
      },
    ]
    return snapshot
  }

  function timelineOf(snapshot: Snapshot, name = 'cfg-0') {
    const index = new SnapshotIndex(snapshot)
    const findings = diagnose([snapshot], selectRules({})).clusters[0].report.findings
    const node = index.chainNodes().find((n) => n.metadata.name === name)!
    return buildTimeline(index, node, findings, { since: { at: '2026-11-01T00:00:00Z' } })
  }

  it('merges Events of both APIs, Pod status, config history, operator lines, node logs and findings in time order', () => {
    const timeline = timelineOf(incident())
    const find = (kind: string, text?: RegExp) => timeline.entries.find((e) => e.kind === kind && (!text || text.test(e.text)))
    expect(find('Event/BackOff')).toMatchObject({ count: 6, first: '2026-11-22T13:11:00.000Z', last: '2026-11-22T13:15:00.000Z', level: 'warning' })
    expect(find('Event/NodeRestarted')).toMatchObject({ source: 'event', subject: { kind: 'ChainNode', name: 'cfg-0' } })
    expect(find('container-exited', /container app/)).toMatchObject({
      first: '2026-11-22T13:11:30.000Z',
      level: 'error',
      text: 'container app failed (exit code 137, OOMKilled)',
    })
    expect(find('container-started', /container app/)?.text).toBe('container app started (restart 2)')
    expect(find('container-exited', /wait-cosmosigner-discovery/)).toMatchObject({ level: 'error', first: '2026-11-22T13:05:35.000Z' })
    expect(find('configmap-hash')).toMatchObject({
      first: '2026-11-22T13:04:59.000Z',
      text: expect.stringMatching(/^ConfigMap config-hash 1 -> \d+ \(first seen/),
    })
    expect(find('pod-recreated')).toMatchObject({
      text: expect.stringMatching(/was uid old-uid\), config-hash 1 -> \d+: restart because the configuration changed/),
    })
    expect(find('log/manager', /^config changed/)).toMatchObject({ source: 'operator', first: '2026-11-22T13:04:58.216Z' })
    expect(find('log/app', /failed to commit height/)).toMatchObject({ count: 400, text: 'failed to commit height 2399' })
    // The failing gate is the worst of it; the finding sits where its first evidence does (the gate's exit).
    expect(find('rule/signer-discovery-timeout')).toMatchObject({ source: 'finding', level: 'error', first: '2026-11-22T13:05:35.000Z' })
    const times = timeline.entries.map((e) => Date.parse(e.first))
    expect(times).toEqual([...times].sort((a, b) => a - b))
  })

  it('reads "now" from the collection time, so a bundle reads the same on any day', () => {
    const snapshot = incident()
    const timeline = timelineOf(snapshot)
    expect(timeline.now).toBe(new Date(snapshot.collectedAt).toISOString())
    const byDefault = buildTimeline(new SnapshotIndex(snapshot), new SnapshotIndex(snapshot).chainNodes()[0], [])
    expect(byDefault.window.until).toBe(timeline.now)
    expect(byDefault.outsideWindow).toBeGreaterThan(0)
  })

  it('renders text with absolute and relative times, markdown safe to paste, and JSON that follows its schema', () => {
    const clusters = timelines([incident()], selectRules({}), { since: { at: '2026-11-22T13:00:00Z' } }, 'x.tgz')
    const text = renderTimelineText(clusters, plainPalette, true)
    expect(text).toMatch(/^ChainNode sc-config-change-restart\/cfg-0$/m)
    expect(text).toMatch(/TIME\s+LAST SEEN\s+SOURCE\s+OBJECT\s+MESSAGE/)
    expect(text).toMatch(/2026-11-22T13:10:00Z\s+9m27s \(x400 over 10m\)\s+log\s+pod\/cfg-0\/app\s+failed to commit height 2399/)
    expect(text).toMatch(/init container wait-cosmosigner-discovery failed \(exit code 1, Error: no signer\)/)
    const markdown = renderTimelineMarkdown(clusters)
    expect(markdown).toMatch(/^\| Time \(UTC\) \| Last seen \| Source \| Object \| What \|$/m)
    expect(markdown).toMatch(/\| finding \| Pod\/cfg-0 \| 🔴 \*\*signer-discovery-timeout: /)
    for (const line of markdown.split('\n').filter((l) => l.startsWith('| 2026'))) expect(line.split(/(?<!\\)\|/).length).toBe(7)
    expect(schemaErrors('timeline.schema.json', timelineJson(clusters))).toEqual([])
    // On a terminal the table is the piped one, whole (kubectl cuts no cell; the terminal wraps a long row).
    const onTerminal = renderTimelineText(clusters, plainPalette, true, 120).split('\n')
    expect(Math.max(...onTerminal.map((line) => line.length))).toBeGreaterThan(120)
    expect(onTerminal.some((line) => line.endsWith('…'))).toBe(false)
    expect(onTerminal.filter((line) => /^\d{4}-/.test(line))).toEqual(text.split('\n').filter((line) => /^\d{4}-/.test(line)))
  })

  it('keeps the first 4,096 characters of a message of megabytes and counts the rest, in every format', () => {
    const snapshot = incident()
    const event = snapshot.objects.find((o) => o.kind === 'Event' && o.metadata.name === 'cfg-0.new')!
    event.note = 'x'.repeat(MAX_ENTRY_CHARS) + 'y'.repeat(5_000_000)
    const clusters = timelines([snapshot], selectRules({}), { since: { at: '2026-11-22T13:00:00Z' } })
    const entry = clusters[0].nodes[0].entries.find((e) => e.kind === 'Event/BackOff')!
    expect(entry.text).toBe(`BackOff: ${'x'.repeat(MAX_ENTRY_CHARS - 9)}`)
    expect(entry.cutChars).toBe(5_000_009)
    expect(renderTimelineText(clusters, plainPalette, true)).toMatch(/BackOff: x+… \(5000009 more characters\)$/m)
    expect(renderTimelineMarkdown(clusters)).toMatch(/BackOff: x+… \(5000009 more characters\) \|$/m)
    expect(schemaErrors('timeline.schema.json', timelineJson(clusters))).toEqual([])
    expect(JSON.stringify(timelineJson(clusters))).not.toContain('xy')
  })

  it('prints text from the cluster on one line with control characters made visible', () => {
    const snapshot = incident()
    const event = snapshot.objects.find((o) => o.kind === 'Event' && o.metadata.name === 'cfg-0.new')!
    event.note = 'line one\nline two \u001b[31mred\u001b[0m | pipe'
    const clusters = timelines([snapshot], selectRules({}), { since: { at: '2026-11-22T13:00:00Z' } })
    const text = renderTimelineText(clusters, plainPalette, true)
    expect(text).toContain('BackOff: line one line two ^[[31mred^[[0m | pipe')
    expect(text).not.toContain('\u001b')
    expect(renderTimelineMarkdown(clusters)).toContain('BackOff: line one line two ^\\[\\[31mred^\\[\\[0m \\| pipe')
  })
})
