import { describe, expect, it } from 'vitest'
import { onsetOf } from '../../../src/engine/define-rule.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { zapJson } from '../../cluster/scenarios/lib/logfmt.js'
import { findingsOf, findObject, useBundles } from '../../helpers/bundles.js'
import { appendManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('healthy-no-leader-election')

describe('leader-election read from the release', () => {
  const manager = (s: Snapshot) => findObject(s, 'Deployment', 'cosmopilot-solo').spec.template.spec.containers[0]
  const leaseFinding = (s: Snapshot) => findingsOf(s, 'leader-election')[0]?.data

  it('a single manager without leader election and without a Lease is clean', () => {
    const s = load('healthy-no-leader-election')
    expect(manager(s).env.some((e: { name: string }) => e.name === 'ENABLE_LEADER_ELECTION')).toBe(false)
    expect(s.objects.some((o) => o.kind === 'Lease' && o.metadata.namespace === 'sc-healthy-no-leader-election')).toBe(false)
    expect(leaseFinding(s)).toBeUndefined()
  })

  it('with ENABLE_LEADER_ELECTION=true the missing Lease is a finding, named after worker and release', () => {
    const s = load('healthy-no-leader-election')
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    expect(leaseFinding(s)).toMatchObject({ problem: 'no-lease', lease: 'solo.cosmopilot.cosmopilot.voluzi.com' })
    manager(s).env.push({ name: 'RELEASE_NAME', value: 'acme' })
    expect(leaseFinding(s)).toMatchObject({ lease: 'solo.acme.cosmopilot.voluzi.com' })
  })

  it('a leader that stopped renewing is dated by its last renewal, not by the old log lines of how it took the lease', () => {
    const s = load('healthy-no-leader-election')
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    const operator = findObject(s, 'Deployment', 'cosmopilot-solo')
    const [pod] = new SnapshotIndex(s).operatorPods(operator)
    const renewed = dateBefore(s, 600).toISOString()
    const { namespace } = operator.metadata
    s.objects.push({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'solo.cosmopilot.cosmopilot.voluzi.com', namespace },
      spec: { holderIdentity: `${pod.metadata.name}_1`, acquireTime: dateBefore(s, 86_400).toISOString(), renewTime: renewed, leaseDurationSeconds: 15 },
    })
    appendManagerLog(s, [zapJson(dateBefore(s, 86_400), 'info', undefined, 'successfully acquired lease solo.cosmopilot.cosmopilot.voluzi.com')])
    const [finding] = findingsOf(s, 'leader-election')
    expect(finding.data).toMatchObject({ problem: 'stale' })
    expect(finding.evidence.some((e) => e.kind === 'log' && Date.parse(e.at!) < Date.parse(renewed))).toBe(true)
    expect(onsetOf(finding)).toBe(renewed)
  })

  it('the command line wins over the environment, as Go flags default to it', () => {
    const s = load('healthy-no-leader-election')
    manager(s).args = ['--enable-leader-election', '-release-name', 'edge', '--worker-name=solo']
    expect(leaseFinding(s)).toMatchObject({ problem: 'no-lease', lease: 'solo.edge.cosmopilot.voluzi.com' })
    manager(s).env.push({ name: 'ENABLE_LEADER_ELECTION', value: 'true' })
    manager(s).args = ['--enable-leader-election=false']
    expect(leaseFinding(s)).toBeUndefined()
    // The operator's environment reader takes exactly "true".
    manager(s).args = []
    manager(s).env.at(-1).value = 'True'
    expect(leaseFinding(s)).toBeUndefined()
  })
})
