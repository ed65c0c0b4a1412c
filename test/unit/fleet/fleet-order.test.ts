import { describe, expect, it } from 'vitest'
import type { Finding, Severity } from '../../../src/engine/define-rule.js'
import type { ClusterReport } from '../../../src/engine/doctor-result.js'
import type { FindingGroup } from '../../../src/engine/group-findings.js'
import { fleetFindings, fleetSummary } from '../../../src/render/doctor-fleet-text.js'
import { renderFinding } from '../../../src/render/doctor-text.js'
import { plainPalette } from '../../../src/render/palette.js'

const ref = (name: string) => ({ kind: 'ChainNode', name, namespace: 'ns' })
function group(ruleId: string, severity: Severity, nodes: number): FindingGroup {
  const members = Array.from({ length: nodes }, (_, i) => ref(`${ruleId}-${i}`))
  const example = {
    ruleId,
    severity,
    subject: members[0],
    node: members[0],
    summary: `${ruleId} summary`,
    cause: 'c',
    action: 'a',
    evidence: [],
    data: {},
  } as unknown as Finding
  return { key: ruleId, ruleId, severity, example, findings: [example], nodes: members }
}
const cluster = { collectedAt: '2026-11-26T13:00:00Z', report: { nodes: [], findings: [] } } as unknown as ClusterReport

describe('a fleet reads worst first, then the cause that touches most nodes', () => {
  it('orders groups by severity, then by nodes affected (not by rule name)', () => {
    const groups = [group('image-pull', 'error', 1), group('leader-election', 'error', 12), group('aaa-warning', 'warning', 30)]
    const text = fleetFindings(cluster, groups, plainPalette, renderFinding).join('\n')
    const at = (s: string) => text.indexOf(s)
    expect(at('leader-election summary')).toBeGreaterThan(-1)
    expect(at('leader-election summary')).toBeLessThan(at('image-pull summary'))
    expect(at('image-pull summary')).toBeLessThan(at('aaa-warning summary'))
  })

  it('wraps the summary line instead of cutting it, at any width', () => {
    const groups = Array.from({ length: 12 }, (_, i) => group(`some-long-rule-name-${i}`, 'error', 1))
    const lines = fleetSummary(cluster, groups, plainPalette, 80)
    const errors = lines.slice(
      0,
      lines.findIndex((l) => l.startsWith('HEALTHY')),
    )
    expect(errors.length).toBeGreaterThan(1)
    for (const line of errors) expect(line.length).toBeLessThanOrEqual(80)
    expect(errors.join(' ')).toContain('some-long-rule-name-11 (1)')
    expect(errors.join(' ')).not.toContain('…')
  })
})
