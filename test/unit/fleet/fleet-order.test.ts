import { describe, expect, it } from 'vitest'
import type { Finding, Severity } from '../../../src/engine/define-rule.js'
import type { ClusterReport } from '../../../src/engine/doctor-result.js'
import { diagnosisOf, explainLinksOf } from '../../../src/engine/diagnosis.js'
import type { Report } from '../../../src/engine/run-rules.js'
import type { RuleId } from '../../../src/engine/rule-ids.js'
import { RULES } from '../../../src/rules/index.js'
import { renderDoctorText } from '../../../src/render/doctor-text.js'
import { plainPalette } from '../../../src/render/palette.js'

const ref = (name: string) => ({ kind: 'ChainNode', name, namespace: 'ns' })
/** One finding about a shared subject that holds for `nodes` nodes (as the operator's are kept once). */
function finding(ruleId: RuleId, severity: Severity, nodes: number, since?: string): Finding {
  const members = Array.from({ length: nodes }, (_, i) => ref(`${ruleId}-${i}`))
  return {
    ruleId,
    severity,
    subject: { kind: 'Deployment', namespace: 'ns', name: `${ruleId}-subject` },
    node: members[0],
    ...(members.length > 1 ? { alsoFor: members.slice(1) } : {}),
    summary: `${ruleId} summary`,
    cause: 'c',
    action: 'a',
    evidence: [],
    data: {},
    ...(since ? { since } : {}),
  }
}
function clusterOf(findings: Finding[]): ClusterReport {
  const nodes = [...new Set(findings.flatMap((f) => [f.node, ...(f.alsoFor ?? [])]))].map((node) => ({ node, rulesChecked: [] }))
  const report: Report = { findings, nodes, suppressed: [], ruleErrors: [], collectionErrors: [] }
  return {
    context: 'c',
    server: 's',
    collectedAt: '2026-11-26T13:00:00Z',
    scope: { kind: 'all' },
    requests: 0,
    durationMs: 0,
    report,
    diagnosis: diagnosisOf(report, explainLinksOf(RULES)),
  }
}

describe('a fleet reads worst first, then the cause that touches most nodes, then the earliest', () => {
  it('orders incidents by severity, then by nodes affected (not by rule name), then by when they began', () => {
    const cluster = clusterOf([
      finding('image-pull', 'error', 1, '2026-11-26T12:00:00Z'),
      finding('node-error', 'error', 1, '2026-11-26T11:00:00Z'),
      finding('leader-election', 'error', 12),
      finding('component-version', 'warning', 30),
    ])
    expect(cluster.diagnosis.incidents.map((i) => i.cause.ruleId)).toEqual(['leader-election', 'node-error', 'image-pull', 'component-version'])
    const text = renderDoctorText({ rulesChecked: [], clusters: [cluster] }, plainPalette)
    const at = (s: string) => text.indexOf(s)
    expect(at('leader-election summary')).toBeGreaterThan(-1)
    expect(at('leader-election summary')).toBeLessThan(at('node-error summary'))
    expect(at('node-error summary')).toBeLessThan(at('image-pull summary'))
    expect(at('image-pull summary')).toBeLessThan(at('component-version summary'))
  })

  it('opens with one whole line per incident at 80 columns, in the order of the blocks below', () => {
    const ids: RuleId[] = ['operator-node-unreachable', 'validator-setup-failing', 'snapshot-export-failing', 'block-threshold-unhealthy']
    const cluster = clusterOf(ids.map((id, i) => finding(id, 'error', i + 1, '2026-11-26T12:00:00Z')))
    const lines = renderDoctorText({ rulesChecked: [], clusters: [cluster] }, plainPalette, { width: 80 }).split('\n')
    const screen = lines.slice(0, lines.indexOf(''))
    expect(screen.slice(0, 4).map((l) => /^ERROR +([a-z-]+)/.exec(l)?.[1])).toEqual([...ids].reverse())
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(lines.join('\n')).not.toContain('…')
  })
})
