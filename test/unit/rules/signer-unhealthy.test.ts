import { describe, expect, it } from 'vitest'
import { planSignerProbes } from '../../../src/app/signer-probes.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { companionCase, editable, findObject, runRule, useBundles } from '../../helpers/bundles.js'
import { onThreeLine } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('signer-pubkey')

/** What the active probes record against cosmosigner 0.2.x: nothing listens on 8080. */
function refusedHttpProbes(s: Snapshot): void {
  for (const pod of ['val-1-signer-0', 'val-1-signer-1'])
    for (const path of ['/livez', '/readyz'])
      s.probes.push({
        kind: 'signer-http',
        namespace: 'sc-signer-pubkey',
        pod,
        target: `pod/${pod}:8080${path}`,
        at: s.collectedAt,
        ok: false,
        detail: 'connection refused',
      })
}

describe('signer-unhealthy on the 3.x line', () => {
  it('plans no HTTP probes of a 3.x signer, but still the gate test', () => {
    const five = planSignerProbes(load('signer-pubkey'))
    const three = planSignerProbes(onThreeLine(load('signer-pubkey')))
    expect(five.filter((p) => p.kind === 'signer-http').map((p) => p.pod)).toContain('val-1-signer-0')
    expect(three.filter((p) => p.kind === 'signer-http')).toEqual([])
    expect(three.filter((p) => p.kind === 'signer-gate')).toEqual(five.filter((p) => p.kind === 'signer-gate'))
  })

  it('does not count failing HTTP probes against ready 3.x signer Pods', () => {
    const three = onThreeLine(load('signer-pubkey'))
    refusedHttpProbes(three)
    expect(runRule(three, 'signer-unhealthy')).toEqual([])
  })

  it('still reports a 3.x signer Pod that is running but not Ready', () => {
    const three = onThreeLine(load('signer-pubkey'))
    refusedHttpProbes(three)
    const ready = findObject(three, 'Pod', 'val-1-signer-1').status.conditions.find((c: { type: string }) => c.type === 'Ready')
    ready.status = 'False'
    const [finding] = runRule(three, 'signer-unhealthy')
    expect(finding.summary).toBe('signer val-1-signer: val-1-signer-1 readiness failing')
  })

  it('still reports failing HTTP probes on the 5.x line', () => {
    const five = load('signer-pubkey')
    refusedHttpProbes(five)
    expect(runRule(five, 'signer-unhealthy')[0].summary).toMatch(/val-1-signer-0 livez, val-1-signer-0 readyz/)
  })
})

companionCase(
  'signer-unhealthy',
  'signer-discovery-timeout',
  () => undefined,
  (s) => {
    for (const pod of editable(s).filter((o) => o.kind === 'Pod' && o.metadata.name.startsWith('val-signer-'))) {
      pod.status.phase = 'Running'
      pod.status.conditions = [{ type: 'Ready', status: 'True' }]
    }
  },
)
