import { describe, expect, it } from 'vitest'
import { groupFindings } from '../../../src/engine/group-findings.js'
import { plainPalette } from '../../../src/render/palette.js'
import { doctorJson } from '../../../src/render/doctor-json.js'
import { renderDoctorJunit } from '../../../src/render/doctor-junit.js'
import { renderDoctorText } from '../../../src/render/doctor-text.js'
import { presentEvidence } from '../../../src/render/evidence.js'
import { RULES } from '../../../src/rules/index.js'
import { nodesOf, type Finding, type Rule } from '../../../src/engine/define-rule.js'
import { diagnosisOf, explainLinksOf } from '../../../src/engine/diagnosis.js'
import { runRules } from '../../../src/engine/run-rules.js'
import { findingEntries } from '../../../src/timeline/findings.js'
import type { TimelineEntry } from '../../../src/timeline/types.js'
import { diagnose } from '../../../src/app/doctor.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { planLogSample } from '../../../src/cluster/log-sample.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { schemaErrors } from '../../helpers/schema.js'
import { type Editable, useBundles } from '../../helpers/bundles.js'
import { exampleBundleNames } from '../../helpers/fixtures.js'

const rules = RULES as unknown as readonly Rule<never>[]
const BUNDLES = exampleBundleNames()
const load = useBundles(...BUNDLES)

/** What a doctor run with --log-sample would have read: the logs of the Pods left out are gone, their stand-ins named. */
function sampled(snapshot: Snapshot, perGroup: number): Snapshot {
  const index = new SnapshotIndex(snapshot)
  const plan = planLogSample(
    index.chainNodes(),
    (node) => index.podOf(node),
    (obj) => index.eventsFor(obj),
    perGroup,
  )
  const logs = snapshot.logs.filter((log) => !(`${log.namespace}/${log.pod}` in plan.standIns))
  return { ...snapshot, logs, logSample: { perGroup, standIns: plan.standIns } }
}

const essence = (snapshot: Snapshot) =>
  diagnose([snapshot], rules).clusters[0].report.findings.map(({ ruleId, severity, node, subject }) => ({ ruleId, severity, node, subject }))

/** `count` copies of one node of a bundle (ChainNode, Pod, ConfigMaps, Events and logs), named `<name>-cNN`. */
function fleetOf(snapshot: Snapshot, name: string, count: number, change?: (copy: Editable[], i: number) => void): Snapshot {
  const own = (o: Editable) =>
    o.metadata.name === name ||
    (o.kind === 'ConfigMap' && o.metadata.name.startsWith(`${name}-`)) ||
    (o.kind === 'Event' && (o.involvedObject ?? o.regarding)?.name === name)
  const originals = snapshot.objects.filter((o) => own(o) && o.kind !== 'Service' && o.kind !== 'PersistentVolumeClaim')
  const rename = new RegExp(`\\b${name}\\b`, 'g')
  const objects = snapshot.objects.filter((o) => !originals.includes(o))
  const logs = snapshot.logs.filter((l) => l.pod !== name)
  for (let i = 0; i < count; i++) {
    const copyName = `${name}-c${String(i).padStart(2, '0')}`
    const copy = JSON.parse(
      JSON.stringify(originals)
        .replace(rename, copyName)
        .replace(/"uid":"([^"]+)"/g, `"uid":"$1-${i}"`),
    ) as Editable[]
    change?.(copy, i)
    objects.push(...copy)
    logs.push(...snapshot.logs.filter((l) => l.pod === name).map((l) => ({ ...l, pod: copyName })))
  }
  return { ...snapshot, objects, logs }
}

describe('fleet scale: grouping and sampled log reads', () => {
  it.each(BUNDLES)('%s: the same findings with the logs of one node per look-alike group as with every log', (name) => {
    const all = load(name)
    expect(essence(sampled(all, 1))).toEqual(essence(all))
  })

  it('the replay above samples for real: the healthy bundle has look-alike nodes whose logs go unread', () => {
    expect(Object.keys(sampled(load('healthy'), 1).logSample!.standIns).length).toBeGreaterThan(0)
  })

  it('reads the logs of a sample of 40 look-alike stalled nodes, finds all 40, and reports them as one cause', () => {
    const fleet = fleetOf(load('not-syncing'), 'stuck-0', 40)
    const sample = sampled(fleet, 2)
    expect(Object.keys(sample.logSample!.standIns)).toHaveLength(38)
    expect(new Set(sample.logs.filter((l) => l.namespace === 'sc-not-syncing').map((l) => l.pod)).size).toBe(2)
    expect(essence(sample)).toEqual(essence(fleet))

    const result = diagnose([sample], rules)
    const groups = groupFindings(result.clusters[0].report)
    const stalled = groups.filter((g) => g.ruleId === 'not-syncing')
    expect(stalled).toHaveLength(1)
    expect(stalled[0].nodes).toHaveLength(40)
    expect(stalled[0].since).toBeDefined()

    const json = doctorJson(result, 'test') as { clusters: { findings: { group: string; ruleId: string }[]; groups: { key: string; count: number }[] }[] }
    expect(schemaErrors('doctor-report.schema.json', json)).toEqual([])
    const keys = new Set(json.clusters[0].findings.filter((f) => f.ruleId === 'not-syncing').map((f) => f.group))
    expect(keys.size).toBe(1)
    expect(json.clusters[0].groups.find((g) => keys.has(g.key))?.count).toBe(40)

    const text = renderDoctorText(result, plainPalette)
    // One line on the first screen, one block below it.
    expect(text.match(/^ERROR +not-syncing +40 nodes +since /m)).not.toBeNull()
    expect(text.match(/not-syncing {2}40 nodes,/g)).toHaveLength(1)
    expect(text).toMatch(/Logs of 38 nodes were not read/)
    expect(text.split('\n').length).toBeLessThan(60)
  })

  it('keeps nodes stalled at another height, or on another chain, in their own group', () => {
    const fleet = fleetOf(load('not-syncing'), 'stuck-0', 6, (copy, i) => {
      const node = copy.find((o) => o.kind === 'ChainNode')!
      if (i === 0) node.status.latestHeight = 12345
      if (i === 1) node.status.chainID = 'other-chain-1'
    })
    const groups = groupFindings(diagnose([fleet], rules).clusters[0].report).filter((g) => g.ruleId === 'not-syncing')
    expect(groups.map((g) => g.nodes.length).sort()).toEqual([1, 1, 4])
  })

  it('prints a node alone in several groups under one heading, with its lead-up once, after all of them', () => {
    const ref = (name: string) => ({ kind: 'ChainNode', namespace: 'ns', name })
    const finding = (ruleId: Finding['ruleId'], node: string): Finding => ({
      ruleId,
      severity: 'error',
      subject: ref(node),
      node: ref(node),
      summary: `${ruleId} on ${node}`,
      cause: 'c',
      action: 'a',
      evidence: [],
      data: {},
    })
    const at = '2026-11-25T08:00:00.000Z'
    const report = {
      findings: [finding('phase-stuck', 'a-0'), finding('reconcile-failing', 'a-0'), finding('not-syncing', 'b-0')],
      nodes: [ref('a-0'), ref('b-0')].map((node) => ({ node, rulesChecked: [] })),
      suppressed: [],
      ruleErrors: [],
      collectionErrors: [],
    }
    const diagnosis = diagnosisOf(report, explainLinksOf(rules))
    const cluster = { context: 'c', server: 's', collectedAt: at, scope: { kind: 'all' as const }, requests: 0, durationMs: 0, report, diagnosis }
    const step: TimelineEntry = { first: at, last: at, count: 1, source: 'event', kind: 'Event/X', subject: ref('a-0'), level: 'normal', text: 'before' }
    const text = renderDoctorText({ rulesChecked: [], clusters: [cluster] }, plainPalette, { leadUps: new Map([['ns/a-0', [step]]]) })
    expect(text.match(/^ChainNode ns\/a-0$/gm)).toHaveLength(1)
    expect(text.match(/Leading up to it/g)).toHaveLength(1)
    expect(text.indexOf('Leading up to it')).toBeGreaterThan(text.indexOf('reconcile-failing on a-0'))
    // phase-stuck is explained by reconcile-failing: inside its incident, after it, and the lead-up after both.
    expect(text.indexOf('phase-stuck on a-0')).toBeGreaterThan(text.indexOf('reconcile-failing on a-0'))
    expect(text.indexOf('Leading up to it')).toBeGreaterThan(text.indexOf('phase-stuck on a-0'))
  })

  it('names every node a finding about the shared operator holds for, and counts it for each', () => {
    const s = load('healthy')
    // Ten minutes on, the operator's leader has stopped renewing its Lease: every node it reconciles is affected.
    const report = runRules(new SnapshotIndex(s), rules, Date.parse(s.collectedAt) + 600_000)
    const lease = report.findings.filter((f) => f.ruleId === 'leader-election')
    expect(lease).toHaveLength(1)
    const names = nodesOf(lease[0]).map((n) => n.name)
    expect(names.sort()).toEqual(report.nodes.map((n) => n.node.name).sort())
    expect(names.length).toBeGreaterThan(1)
    const diagnosis = diagnosisOf(report, explainLinksOf(rules))
    for (const { state } of diagnosis.nodes) expect(state).toBe('error')
    // One cause over every node is one incident, however many nodes it touches.
    expect(diagnosis.incidents.filter((i) => i.cause.ruleId === 'leader-election')).toHaveLength(1)
    expect(groupFindings(report).find((g) => g.ruleId === 'leader-election')?.nodes).toHaveLength(names.length)
    const other = new SnapshotIndex(s).chainNodes().find((n) => n.metadata.name !== lease[0].node.name)!
    expect(findingEntries(lease, other, s.collectedAt).map((e) => e.kind)).toEqual(['rule/leader-election'])
    const cluster = { context: 'c', server: 's', collectedAt: s.collectedAt, scope: { kind: 'all' as const }, requests: 0, durationMs: 0, report, diagnosis }
    const junit = renderDoctorJunit({ rulesChecked: [], clusters: [cluster] }, 'error')
    expect(junit.match(/name="leader-election">\s*<failure/g)).toHaveLength(names.length)
  })

  it('opens with one line per incident: nodes stalled at different heights are three causes, each with its node count', () => {
    const fleet = fleetOf(load('not-syncing'), 'stuck-0', 6, (copy, i) => {
      if (i < 2) copy.find((o) => o.kind === 'ChainNode')!.status.latestHeight = 12345 + i
    })
    const result = diagnose([fleet], rules)
    expect(groupFindings(result.clusters[0].report).filter((g) => g.ruleId === 'not-syncing')).toHaveLength(3)
    const lines = renderDoctorText(result, plainPalette, { width: 80 }).split('\n')
    const firstScreen = lines.slice(
      0,
      lines.findIndex((line) => line === ''),
    )
    expect(firstScreen.filter((line) => /^ERROR +not-syncing +\d+ nodes?/.test(line)).map((line) => /(\d+) nodes?/.exec(line)![1])).toEqual(['4', '1', '1'])
    expect(firstScreen.at(-1)).toMatch(/^HEALTHY: /)
  })

  it('reads the logs of a node whose cheap signals differ from its look-alikes (a restart)', () => {
    const fleet = fleetOf(load('not-syncing'), 'stuck-0', 6, (copy, i) => {
      const pod = copy.find((o) => o.kind === 'Pod')!
      if (i === 5) for (const status of pod.status.containerStatuses) status.restartCount = 2
    })
    const index = new SnapshotIndex(fleet)
    const plan = planLogSample(
      index.chainNodes(),
      (n) => index.podOf(n),
      (o) => index.eventsFor(o),
      1,
    )
    expect(plan.read.has('sc-not-syncing/stuck-0-c05')).toBe(true)
    expect(plan.read.has('sc-not-syncing/stuck-0-c00')).toBe(true)
    expect(Object.keys(plan.standIns)).toHaveLength(4)
  })

  it('folds 200,000 repeats of one evidence line without copying lists or spreading arguments', () => {
    const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()
    const lines = presentEvidence(Array.from({ length: 200_000 }, (_, i) => ({ kind: 'log' as const, source: 'log of x/app', text: `height ${i}`, at: at(i) })))
    expect(lines).toHaveLength(1)
    expect(lines[0].count).toBe(200_000)
    expect(lines[0].at).toBe(at(199_999).replace(/\.\d+Z$/, 'Z'))
  })
})
