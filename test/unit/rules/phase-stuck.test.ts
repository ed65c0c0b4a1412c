import { describe, expect, it } from 'vitest'
import { QUOTA_ERROR } from '../../cluster/scenarios/sc-reconcile-failing.js'
import { findingsOf, findObject, useBundles } from '../../helpers/bundles.js'
import { managerLine } from '../../helpers/operator-records.js'
import { failReconciles as failing, healthyManagerLog, healthyNode as node, minutesBefore, useHealthy } from '../../helpers/healthy-edits.js'
import { dateBefore } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('reconcile-failing', 'phase-stuck', 'healthy-no-leader-election')

describe('phase-stuck', () => {
  it('says how long, that nothing explains it, and what to read next', () => {
    const [finding] = findingsOf(load('phase-stuck'), 'phase-stuck')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/^stuck in phase InitializingData for about 1[67]\dm \(more than 130m\)$/)
    expect(finding.data).toMatchObject({ phase: 'InitializingData', exact: false, explained: false })
    expect(finding.evidence.find((e) => e.kind === 'missing')?.text).toMatch(/no operator error and no Warning Event since/)
    expect(finding.action).toMatch(/kubectl logs -n sc-phase-stuck init-0-init-data --all-containers/)
  })

  it('uses the threshold given on the command line', () => {
    expect(findingsOf(load('phase-stuck'), 'phase-stuck', { phaseTimeoutsMs: { InitializingData: 4 * 3600_000 } })).toEqual([])
    expect(findingsOf(load('phase-stuck'), 'phase-stuck', { phaseTimeoutsMs: { Starting: 60_000 } })).toHaveLength(1)
  })

  it("takes the exact start from the operator's log and the reconcile errors of the span as evidence", () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'phase-stuck')
    expect(finding.data).toMatchObject({ exact: true, explained: true, thresholdMs: 30 * 60_000 })
    expect(finding.summary).toMatch(/^stuck in phase InitializingData for 4\dm \(more than 30m\)$/)
    expect(finding.evidence.some((e) => e.kind === 'log' && e.text.startsWith(QUOTA_ERROR))).toBe(true)
    // The operator's error says specifically why: the quota, with its used and hard values, and the command that shows it.
    expect(finding.cause).toMatch(/^the node cannot leave InitializingData: ResourceQuota compute-resources is full: requests\.cpu used 6 of 8, asks 4 more$/)
    expect(finding.action).toMatch(
      /^Raise ResourceQuota compute-resources in sc-reconcile-failing \(kubectl describe resourcequota compute-resources -n sc-reconcile-failing\)/,
    )
  })

  it('reads the start off the node Pod for Starting, and leaves a serving phase alone', () => {
    const s = load('healthy-no-leader-election')
    const node = findObject(s, 'ChainNode', 'solo-0')
    node.status.phase = 'Starting'
    // The Pod started two days ago: far past 70 minutes.
    expect(findingsOf(s, 'phase-stuck')[0].summary).toMatch(/^stuck in phase Starting for about \d+[hd] \(more than 70m\)$/)
    node.status.phase = 'Syncing'
    expect(findingsOf(s, 'phase-stuck')).toEqual([])
  })

  it('a Pod being deleted for a restart dates the phase from the deletion, not from its creation', () => {
    const s = load('healthy-no-leader-election')
    findObject(s, 'ChainNode', 'solo-0').status.phase = 'Restarting'
    const pod = findObject(s, 'Pod', 'solo-0')
    pod.metadata.deletionGracePeriodSeconds = 30
    pod.metadata.deletionTimestamp = new Date(Date.parse(s.collectedAt) + 20_000).toISOString()
    expect(findingsOf(s, 'phase-stuck')).toEqual([])
    const late = load('healthy-no-leader-election')
    findObject(late, 'ChainNode', 'solo-0').status.phase = 'Restarting'
    Object.assign(findObject(late, 'Pod', 'solo-0').metadata, { deletionGracePeriodSeconds: 30, deletionTimestamp: dateBefore(late, 20 * 60).toISOString() })
    expect(findingsOf(late, 'phase-stuck')[0].summary).toMatch(/^stuck in phase Restarting for about 20m \(more than 15m\)$/)
  })
})

describe('a node stuck in Restarting gets its own cause, not only the circular text', () => {
  const clone = useHealthy()
  const restarting = () => {
    const s = clone()
    node(s).status.phase = 'Restarting'
    healthyManagerLog(s).text += managerLine(node(s), { msg: 'updating .status.phase', phase: 'Restarting', at: minutesBefore(s, 40) }, 'rfc3339')
    return s
  }

  it('a LimitRange refusing the recreated Pod', () => {
    const s = restarting()
    failing(s, node(s), 'failed to recreate pod fullnode-0: pods "fullnode-0" is forbidden: maximum cpu usage per Pod is 4, but limit is 8')
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toBe('the node cannot leave Restarting: a LimitRange allows at most 4 cpu per Pod, and Pod fullnode-0 asks 8 (its limit)')
    expect(finding.action).toMatch(/Set the cpu limit of fullnode-0 at or below 4/)
  })

  it('the old Pod that never finished terminating, read off the Pod itself', () => {
    const s = restarting()
    const pod = findObject(s, 'Pod', 'fullnode-0')
    pod.metadata.deletionTimestamp = minutesBefore(s, 35)
    Object.assign(pod.metadata, { finalizers: ['example.com/backup'] })
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toMatch(
      /^the node cannot leave Restarting: the old Pod fullnode-0 has been terminating since .* \(finalizers: example\.com\/backup\)/,
    )
    expect(finding.action).toMatch(/kubectl get pod fullnode-0 -n sc-healthy -o jsonpath/)
    expect(finding.evidence.some((e) => e.text.includes('.metadata.deletionTimestamp'))).toBe(true)
  })

  it("the operator's own timeout waiting for it", () => {
    const s = restarting()
    failing(s, node(s), 'timeout waiting for pod fullnode-0 to be deleted: timed out waiting for the condition')
    const [finding] = findingsOf(s, 'phase-stuck')
    expect(finding.cause).toBe("the node cannot leave Restarting: the old Pod fullnode-0 did not finish terminating within the operator's 2m")
  })
})
