import { describe, expect, it } from 'vitest'
import type { KubeObject, Snapshot } from '../../../src/snapshot/types.js'
import { companionCase, findingsOf, findObject } from '../../helpers/bundles.js'
import {
  failReconciles as failing,
  healthyManagerLog,
  healthyNode as node,
  healthyOperator as operator,
  minutesBefore,
  useHealthy,
} from '../../helpers/healthy-edits.js'
import { managerLine } from '../../helpers/operator-records.js'

companionCase(
  'priority-class-missing',
  'healthy',
  (s) => {
    const node = findObject(s, 'ChainNode', 'fullnode-0')
    s.objects.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'e1', namespace: 'sc-healthy' },
      involvedObject: { kind: 'ChainNode', name: 'fullnode-0', namespace: 'sc-healthy', uid: node.metadata.uid },
      type: 'Warning',
      reason: 'NodeError',
      message: 'Pod failed to start: pods "fullnode-0" is forbidden: no PriorityClass with name cosmopilot-nodes was found',
      lastTimestamp: s.collectedAt,
    })
  },
  () => undefined,
)

const clone = useHealthy()

const NO_CLASS = 'failed to create init pod: pods "fullnode-0-init-data" is forbidden: no PriorityClass with name cosmopilot-default was found'

describe('priority-class-missing reads the release before blaming its name', () => {
  it('release cosmopilot, classes absent: recreate them, no word of a release-name mismatch', () => {
    const s = clone()
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/never installed or were deleted/)
    expect(finding.cause).not.toMatch(/Helm release name \(/)
    expect(finding.action).toMatch(/kubectl create priorityclass cosmopilot-default --value=0/)
    expect(finding.action).not.toMatch(/release name cosmopilot/)
  })

  it('release prod with RELEASE_NAME unset: the names differ, set RELEASE_NAME=prod', () => {
    const s = clone()
    operator(s).metadata.labels!['app.kubernetes.io/instance'] = 'prod'
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/after RELEASE_NAME \(cosmopilot\) while the chart created them after the Helm release name \(prod-…\)/)
    expect(finding.action).toMatch(/kubectl set env deploy\/cosmopilot -n cosmopilot-system -c manager RELEASE_NAME=prod/)
  })

  it('no release label: cannot tell which, with both candidates', () => {
    const s = clone()
    delete operator(s).metadata.labels!['app.kubernetes.io/instance']
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/^cannot tell which: .*another release name.*never installed or were deleted/)
  })
})

const priorityClass = (name: string): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name } })
/** The classes every API server creates, so a read list is never empty. */
const withClasses = (s: Snapshot, ...names: string[]) => s.objects.push(...['system-cluster-critical', 'system-node-critical', ...names].map(priorityClass))

describe('priority-class-missing reads the cluster’s PriorityClasses where they were read', () => {
  it('classes of release prod exist, no release label: the names differ, set RELEASE_NAME=prod (no longer "cannot tell")', () => {
    const s = clone()
    delete operator(s).metadata.labels!['app.kubernetes.io/instance']
    withClasses(s, 'prod-default', 'prod-nodes', 'prod-validators')
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/after the Helm release name \(prod-…\)/)
    expect(finding.action).toMatch(/RELEASE_NAME=prod/)
    expect(finding.evidence.map((e) => e.text)).toContain('system-cluster-critical, system-node-critical, prod-default, prod-nodes, prod-validators')
  })

  it('release prod by its label but no chart class at all: the classes are absent, create the one the manager wants', () => {
    const s = clone()
    operator(s).metadata.labels!['app.kubernetes.io/instance'] = 'prod'
    withClasses(s)
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.cause).toMatch(/never installed or were deleted/)
    expect(finding.action).toMatch(/^Create the class the manager looks for: kubectl create priorityclass cosmopilot-default --value=0/)
    expect(finding.action).not.toMatch(/helm upgrade prod/)
  })

  it("another operator's release in the cluster (its classes exist) is no mismatch of this one: release cosmopilot's classes are absent", () => {
    const s = clone()
    operator(s).metadata.labels!['app.kubernetes.io/instance'] = 'cosmopilot'
    withClasses(s, 'other-default', 'other-nodes', 'other-validators')
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.data).toMatchObject({ why: 'classes-absent', release: 'cosmopilot' })
    expect(finding.action).not.toMatch(/RELEASE_NAME=other/)
  })

  it('the class exists now: the refusal predates it, a warning with nothing to change', () => {
    const s = clone()
    withClasses(s, 'cosmopilot-default', 'cosmopilot-nodes', 'cosmopilot-validators')
    failing(s, node(s), NO_CLASS)
    const [finding] = findingsOf(s, 'priority-class-missing')
    expect(finding.severity).toBe('warning')
    expect(finding.cause).toMatch(/exists now/)
    expect(finding.action).toMatch(/^Nothing to change/)
  })

  it('the class exists now and the later reconciles fail on something else: that is the story, not the class (the real manager)', () => {
    const s = clone()
    withClasses(s, 'cosmopilot-default', 'cosmopilot-nodes', 'cosmopilot-validators')
    const refused = 'failed to create init pod: pods "fullnode-0-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'
    for (const [minutes, error] of [
      [9, NO_CLASS],
      [5, NO_CLASS],
      [2, refused],
      [1, refused],
    ] as const)
      healthyManagerLog(s).text += managerLine(node(s), { msg: 'Reconciler error', error, at: minutesBefore(s, minutes) }, 'rfc3339')
    expect(findingsOf(s, 'priority-class-missing')).toEqual([])
    expect(findingsOf(s, 'reconcile-failing')).toMatchObject([{ severity: 'error', data: { cause: 'limit-range', error: refused } }])
  })
})
