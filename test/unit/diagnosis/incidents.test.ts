import { describe, expect, it } from 'vitest'
import { diagnose } from '../../../src/app/doctor.js'
import type { Finding, Rule } from '../../../src/engine/define-rule.js'
import { diagnosisOf, explainLinksOf } from '../../../src/engine/diagnosis.js'
import { exitCodeFor } from '../../../src/engine/exit-code.js'
import { sortFindings, type Report } from '../../../src/engine/run-rules.js'
import { doctorJson } from '../../../src/render/doctor-json.js'
import { renderDoctorMarkdown } from '../../../src/render/doctor-markdown.js'
import { renderDoctorText } from '../../../src/render/doctor-text.js'
import { plainPalette } from '../../../src/render/palette.js'
import { RULE_IDS } from '../../../src/engine/rule-ids.js'
import { RULES } from '../../../src/rules/index.js'
import { ExitCode } from '../../../src/util/errors.js'
import { failedChainProbe } from '../../helpers/snapshot-edits.js'
import { schemaErrors } from '../../helpers/schema.js'
import { useBundles } from '../../helpers/bundles.js'

const rules = RULES as unknown as readonly Rule[]
const load = useBundles('reconcile-failing', 'healthy')
const ref = (name: string, kind = 'ChainNode') => ({ kind, namespace: 'ns', name })

function finding(ruleId: Finding['ruleId'], node: string, extra: Partial<Finding> = {}): Finding {
  return {
    ruleId,
    severity: 'error',
    subject: ref(node),
    node: ref(node),
    summary: `${ruleId} on ${node}`,
    cause: 'c',
    action: 'a',
    evidence: [],
    data: {},
    ...extra,
  }
}
const reportOf = (findings: Finding[], names: string[]): Report => ({
  findings,
  nodes: names.map((name) => ({ node: ref(name), rulesChecked: [] })),
  suppressed: [],
  ruleErrors: [],
  collectionErrors: [],
})

describe('the links between rules are data', () => {
  it('every rule explains only other rules that exist, and no two rules explain each other round in a circle', () => {
    const links = explainLinksOf(rules)
    expect(links.size).toBeGreaterThan(5)
    for (const [id, explained] of links) {
      for (const other of explained) {
        expect(RULE_IDS, `${id} explains ${other}`).toContain(other)
        expect(other, `${id} explains itself`).not.toBe(id)
      }
    }
    // No cycle: following the links from any rule never comes back to it.
    for (const start of links.keys()) {
      const seen = new Set<string>()
      const walk = (id: string): void => {
        for (const next of links.get(id as never) ?? []) {
          expect(next, `a cycle through ${start}`).not.toBe(start)
          if (!seen.has(next)) {
            seen.add(next)
            walk(next)
          }
        }
      }
      walk(start)
    }
  })

  it('a refused reconcile explains the phase the node is stuck in; operator-wide causes explain the reconcile and the phase', () => {
    const links = explainLinksOf(rules)
    expect(links.get('reconcile-failing')?.has('phase-stuck')).toBe(true)
    expect(links.get('leader-election')?.has('phase-stuck')).toBe(true)
    expect(links.get('genesis-unavailable')?.has('phase-stuck')).toBe(true)
  })
})

describe('incidents: a cause with the findings it explains', () => {
  it('reconcile-failing bundle: the ResourceQuota refusal is the cause, phase-stuck its symptom, one incident, cause first', () => {
    const result = diagnose([load('reconcile-failing')], rules, 'reconcile-failing.tgz')
    const { diagnosis } = result.clusters[0]
    expect(diagnosis.incidents).toHaveLength(1)
    const [incident] = diagnosis.incidents
    expect(incident.cause.ruleId).toBe('reconcile-failing')
    expect(incident.symptoms.map((s) => s.ruleId)).toEqual(['phase-stuck'])
    expect(incident.nodes.map((n) => n.name)).toEqual(['quota-0'])
    expect(incident.severity).toBe('error')
    expect(incident.began).toBeDefined()

    const text = renderDoctorText(result, plainPalette, { width: 120 })
    expect(text.indexOf('reconcile-failing  ChainNode/quota-0')).toBeGreaterThan(-1)
    expect(text.indexOf('reconcile-failing  ChainNode/quota-0')).toBeLessThan(text.indexOf('phase-stuck  ChainNode/quota-0'))
    expect(text).toMatch(/Explained by: reconcile-failing on sc-reconcile-failing\/quota-0 \(above\)/)
    expect(text).toMatch(/2 errors, 0 warnings, 0 info in 1 incident on 1 node\./)

    const json = doctorJson(result, 'test') as {
      schemaVersion: number
      clusters: {
        incidents: { id: string; cause: { ruleId: string }; symptoms: { ruleId: string }[] }[]
        findings: { ruleId: string; incident: string; role: string }[]
      }[]
    }
    expect(schemaErrors('doctor-report.schema.json', json)).toEqual([])
    expect(json.schemaVersion).toBe(2)
    const [cluster] = json.clusters
    expect(cluster.incidents.map((i) => [i.cause.ruleId, i.symptoms.map((s) => s.ruleId)])).toEqual([['reconcile-failing', ['phase-stuck']]])
    expect(cluster.findings.map((f) => [f.ruleId, f.role, f.incident === cluster.incidents[0].id])).toEqual([
      ['phase-stuck', 'symptom', true],
      ['reconcile-failing', 'cause', true],
    ])
    const markdown = renderDoctorMarkdown(result)
    expect(markdown.indexOf('`reconcile-failing` on')).toBeLessThan(markdown.indexOf('`phase-stuck` on'))
  })

  it('the outranking rule (double-sign-risk, at the head of RULE_IDS) comes first of its severity, whatever its node is called and however many nodes the others touch', () => {
    const findings = [finding('image-pull', 'a-0'), finding('image-pull', 'a-1'), finding('double-sign-risk', 'z-0'), finding('oom-recovery', 'b-0')]
    expect(RULE_IDS[0]).toBe('double-sign-risk')
    expect(sortFindings(findings).map((f) => f.ruleId)).toEqual(['double-sign-risk', 'image-pull', 'image-pull', 'oom-recovery'])
    const { incidents } = diagnosisOf(reportOf(findings, ['a-0', 'a-1', 'b-0', 'z-0']), explainLinksOf(rules))
    expect(incidents[0].cause.ruleId).toBe('double-sign-risk')
    // Of a lower severity it outranks nothing.
    const warned = [finding('image-pull', 'a-0'), finding('double-sign-risk', 'z-0', { severity: 'warning' })]
    expect(sortFindings(warned).map((f) => f.ruleId)).toEqual(['image-pull', 'double-sign-risk'])
  })

  it('findings that name one incident (one key presented by several nodes) are one incident naming every node', () => {
    const report = reportOf(
      [
        finding('double-sign-risk', 'val-1', { data: { role: 'signer' }, incidentKey: 'key:ABCD' }),
        finding('double-sign-risk', 'val-1-standby', { data: { role: 'standby' }, incidentKey: 'key:ABCD' }),
        finding('double-sign-risk', 'other', { data: { role: 'signer' }, incidentKey: 'key:EF01' }),
      ],
      ['val-1', 'val-1-standby', 'other'],
    )
    const { incidents } = diagnosisOf(report, explainLinksOf(rules))
    expect(incidents.map((i) => i.nodes.map((n) => n.name))).toEqual([['val-1', 'val-1-standby'], ['other']])
  })

  it('a symptom is never an incident of its own, even when it is worse than its cause; the incident takes the worse severity', () => {
    const report = reportOf([finding('phase-stuck', 'a-0'), finding('reconcile-failing', 'a-0', { severity: 'warning' })], ['a-0'])
    const { incidents, roleOf } = diagnosisOf(report, explainLinksOf(rules))
    expect(incidents).toHaveLength(1)
    expect(incidents[0].cause.ruleId).toBe('reconcile-failing')
    expect(incidents[0].severity).toBe('error')
    expect(roleOf.get(report.findings[0])?.role).toBe('symptom')
  })

  it('a cause on another node explains nothing here: the links hold on the same node only', () => {
    const report = reportOf([finding('phase-stuck', 'a-0'), finding('reconcile-failing', 'b-0')], ['a-0', 'b-0'])
    expect(
      diagnosisOf(report, explainLinksOf(rules))
        .incidents.map((i) => i.cause.ruleId)
        .sort(),
    ).toEqual(['phase-stuck', 'reconcile-failing'])
  })
})

describe('honest states: healthy only when measured', () => {
  it('a node whose chain could not be measured is "not measured" with the reason, never HEALTHY, exit code 3, JSON worst agrees', () => {
    const snapshot = structuredClone(load('healthy'))
    snapshot.probes = snapshot.probes.filter((p) => !(p.kind === 'chain' && p.pod === 'fullnode-0'))
    snapshot.probes.push(failedChainProbe('/status on 26657: port-forward to sc-healthy/fullnode-0: forward not found', snapshot.collectedAt))
    const result = diagnose([snapshot], rules)
    const { diagnosis } = result.clusters[0]
    const node = diagnosis.nodes.find((n) => n.node.name === 'fullnode-0')!
    expect(node.state).toBe('not-measured')
    expect(node.notMeasured).toBe('chain RPC gave no answer: /status on 26657: forward not found')
    expect(diagnosis.worst).toBe('not-measured')
    expect(exitCodeFor(result, 'error')).toBe(ExitCode.Incomplete)

    const text = renderDoctorText(result, plainPalette, { width: 120 })
    expect(text).toMatch(/^NOT MEASURED: 1 node: sc-healthy\/fullnode-0$/m)
    expect(text).toMatch(/^ {2}sc-healthy\/fullnode-0 pod\/fullnode-0:26657: no answer: \/status on 26657: forward not found$/m)
    expect(text).not.toMatch(/^HEALTHY:.*fullnode-0\b/m)
    expect(text).not.toMatch(/No problems found/)
    expect(text).toMatch(/1 not measured, so not called healthy/)
    const json = doctorJson(result, 'test') as { summary: { worst: string; notMeasured: number }; clusters: { nodes: { name: string; worst: string }[] }[] }
    expect(schemaErrors('doctor-report.schema.json', json)).toEqual([])
    expect(json.summary).toMatchObject({ worst: 'not-measured', notMeasured: 1 })
    expect(json.clusters[0].nodes.find((n) => n.name === 'fullnode-0')?.worst).toBe('not-measured')
  })

  it('the healthy bundle, measured, is healthy: exit 0, worst ok', () => {
    const result = diagnose([load('healthy')], rules)
    expect(result.clusters[0].diagnosis.worst).toBe('ok')
    expect(exitCodeFor(result, 'error')).toBe(ExitCode.Clean)
    expect(renderDoctorText(result, plainPalette)).toMatch(/No problems found on \d+ nodes\./)
  })

  it('a ChainNodeSet with no ChainNode is called a ChainNodeSet and counted apart from the nodes', () => {
    const report: Report = {
      findings: [finding('genesis-unavailable', 'no-genesis', { subject: ref('no-genesis', 'ChainNodeSet'), node: ref('no-genesis', 'ChainNodeSet') })],
      nodes: [
        { node: ref('full-0'), rulesChecked: [] },
        { node: ref('no-genesis', 'ChainNodeSet'), rulesChecked: [] },
      ],
      suppressed: [],
      ruleErrors: [],
      collectionErrors: [],
    }
    const diagnosis = diagnosisOf(report, explainLinksOf(rules))
    expect(diagnosis.states.chainNodes.ok).toBe(1)
    expect(diagnosis.states.chainNodeSets.error).toBe(1)
    const cluster = {
      context: 'c',
      server: 's',
      collectedAt: '2026-11-26T13:00:00Z',
      scope: { kind: 'all' as const },
      requests: 0,
      durationMs: 0,
      report,
      diagnosis,
    }
    const text = renderDoctorText({ rulesChecked: [], clusters: [cluster] }, plainPalette, { width: 80 })
    expect(text).toMatch(/^ChainNodeSet ns\/no-genesis$/m)
    expect(text).not.toMatch(/ChainNode ns\/no-genesis/)
    expect(text).toMatch(/on 1 node and 1 ChainNodeSet\./)
  })
})

describe('actions checked against the evidence', () => {
  const notSyncing = rules.find((r) => r.id === 'not-syncing')!
  const on = { node: ref('full-0'), subject: ref('full-0') }
  it('a stalled node with peers is told first to compare heights (a halted chain), not to add peers', () => {
    const action = notSyncing.action({ measured: 'height 148 over 3s', peers: 1, peersConfigured: true } as never, on)
    expect(action).toMatch(/^Compare the height with other nodes of the chain/)
    expect(action).not.toMatch(/set persistentPeers/)
  })
  it('a node with no peer is told first to check its peers', () => {
    expect(notSyncing.action({ measured: 'height 148 over 3s', peers: 0, peersConfigured: true } as never, on)).toMatch(/^Check connected peers/)
  })
})

describe('one answer whatever the scope: suppression of a shared finding', () => {
  it('an operator-wide finding suppressed on one node is kept for the others, whichever node was checked first', async () => {
    const { runRules } = await import('../../../src/engine/run-rules.js')
    const { SnapshotIndex } = await import('../../../src/snapshot/index.js')
    const s = load('healthy')
    const now = Date.parse(s.collectedAt) + 600_000
    // The operator's Lease has gone stale for every node (leader-election, shared); a rule that suppresses it
    // fires on the first node only.
    const suppressor = {
      ...(rules.find((r) => r.id === 'webhook-certificates') as Rule),
      check: ({ node }: { node: { metadata: { name: string } } }) =>
        node.metadata.name === 'fullnode-0' ? [{ subject: { kind: 'ChainNode', namespace: 'sc-healthy', name: 'fullnode-0' }, data: {}, evidence: [] }] : [],
      summary: () => 's',
      cause: () => 'c',
      action: () => 'a',
    } as unknown as Rule
    const leader = rules.find((r) => r.id === 'leader-election')!
    const report = runRules(new SnapshotIndex(s), [suppressor, leader], now)
    const lease = report.findings.filter((f) => f.ruleId === 'leader-election')
    expect(lease).toHaveLength(1)
    const holds = [lease[0].node, ...(lease[0].alsoFor ?? [])].map((n) => n.name).sort()
    expect(holds).not.toContain('fullnode-0')
    expect(holds.length).toBe(report.nodes.length - 1)
    expect(report.suppressed).toEqual([{ ruleId: 'leader-election', node: expect.objectContaining({ name: 'fullnode-0' }), by: 'webhook-certificates' }])
  })
})

describe('the most specific cause explains', () => {
  it('a refused reconcile on the node, not the fleet-wide operator trouble, explains its stuck phase; the refusal stays an incident', () => {
    const others = ['b-0', 'c-0']
    const report = reportOf(
      [
        finding('leader-election', 'a-0', { subject: ref('cosmopilot', 'Deployment'), alsoFor: others.map((n) => ref(n)) }),
        finding('phase-stuck', 'a-0'),
        finding('reconcile-failing', 'a-0'),
      ],
      ['a-0', ...others],
    )
    const { incidents } = diagnosisOf(report, explainLinksOf(rules))
    const causes = Object.fromEntries(incidents.map((i) => [i.cause.ruleId, i.symptoms.map((s) => s.ruleId)]))
    expect(causes).toEqual({ 'leader-election': [], 'reconcile-failing': ['phase-stuck'] })
  })
})
