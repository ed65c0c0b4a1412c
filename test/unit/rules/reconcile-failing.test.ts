import { describe, expect, it } from 'vitest'
import { reconcileHistory } from '../../../src/analysis/reconcile-log.js'
import { statusRows } from '../../../src/analysis/status-model.js'
import { onsetOf } from '../../../src/engine/define-rule.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { reconcileFields, reconcilerError, zapJson } from '../../cluster/scenarios/lib/logfmt.js'
import { QUOTA_ERROR } from '../../cluster/scenarios/sc-reconcile-failing.js'
import { findingsOf, findObject, runAllRules, useBundles } from '../../helpers/bundles.js'
import { appendManagerLog, appendReleaseManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'
import { managerLine, operatorEvent } from '../../helpers/operator-records.js'
import { failReconciles as failing, healthyManagerLog, healthyNode as node, minutesBefore as before, useHealthy } from '../../helpers/healthy-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('reconcile-failing', 'healthy-no-leader-election')
const ids = (s: Snapshot) => [...new Set(runAllRules(s).findings.map((f) => f.ruleId))].sort()

/** Keep only the manager log lines that do not match. */
function dropManagerLines(s: Snapshot, pattern: RegExp, keepLast = 0): void {
  const log = s.logs.find((l) => l.container === 'manager')!
  const lines = log.text.split('\n')
  const matching = lines.filter((l) => pattern.test(l))
  const kept = new Set(keepLast ? matching.slice(-keepLast) : [])
  log.text = lines.filter((l) => !pattern.test(l) || kept.has(l)).join('\n')
}

describe('reconcile-failing and a ChainNodeSet that failed once and recovered', () => {
  const NS = 'sc-reconcile-failing'
  const SET_ERROR = 'Operation cannot be fulfilled on chainnodesets "hub": StorageError: invalid object'
  /** quota-0 as a child of set hub, whose reconcile failed a minute ago and went through since. */
  const childOfRecoveredSet = () => {
    const s = load('reconcile-failing')
    findObject(s, 'ChainNode', 'quota-0').metadata.labels = { nodeset: 'hub', group: 'full' }
    s.objects.push({ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNodeSet', metadata: { name: 'hub', namespace: NS }, spec: {} })
    appendReleaseManagerLog(s, 'cosmopilot-', [
      reconcilerError(dateBefore(s, 60), 'ChainNodeSet', NS, 'hub', 's1', SET_ERROR),
      zapJson(dateBefore(s, 30), 'info', undefined, 'finishing reconcile', reconcileFields('ChainNodeSet', NS, 'hub', 's2')),
    ])
    return s
  }

  it("reports the node's own failing run, not the set's error that has recovered", () => {
    const [finding] = findingsOf(childOfRecoveredSet(), 'reconcile-failing')
    expect(finding.data).toMatchObject({ object: 'ChainNode/quota-0', cause: 'quota' })
    expect(finding.summary).toContain(QUOTA_ERROR)
    expect(finding.evidence.filter((e) => e.kind === 'log').map((e) => e.source)).toEqual(['Reconciler error on ChainNode/quota-0'])
  })

  it("status shows the node's error under the table, not the set's", () => {
    const s = childOfRecoveredSet()
    const row = statusRows(new SnapshotIndex(s)).find((r) => r.name === 'quota-0')!
    expect(row.operatorError?.error).toContain(QUOTA_ERROR)
  })
})

describe('reconcile-failing', () => {
  it("reports the operator's error as the summary, with the quota named in the action", () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'reconcile-failing')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/^reconcile of ChainNode\/quota-0 fails \(x\d+ over \d+m\): failed to create init pod/)
    expect(finding.summary).toContain(QUOTA_ERROR)
    expect(finding.action).toMatch(/Raise ResourceQuota compute-resources in sc-reconcile-failing/)
    expect(finding.evidence.some((e) => e.kind === 'log' && e.text.startsWith(QUOTA_ERROR) && /\(x\d+ over \d+m\)/.test(e.text))).toBe(true)
  })

  it('is a warning for a single failure, and for failures that stopped coming', () => {
    const once = load('reconcile-failing')
    dropManagerLines(once, /Reconciler error.*quota-0/, 1)
    expect(findingsOf(once, 'reconcile-failing')[0].severity).toBe('warning')
    const recorded = load('reconcile-failing')
    expect(findingsOf(recorded, 'reconcile-failing', {}, Date.parse(recorded.collectedAt) + 30 * 60_000)[0].severity).toBe('warning')
  })

  it('dates the finding from the first failure of the run, not from the last repeat its evidence lines carry', () => {
    const [finding] = findingsOf(load('reconcile-failing'), 'reconcile-failing')
    const firstFailure = reconcileHistory(
      new SnapshotIndex(load('reconcile-failing')),
      findObject(load('reconcile-failing'), 'ChainNode', 'quota-0'),
    ).failingSince!
    expect(finding.since).toBe(firstFailure)
    expect(onsetOf(finding)).toBe(firstFailure)
    expect(finding.evidence.every((e) => !e.at || Date.parse(e.at) > Date.parse(firstFailure))).toBe(true)
  })

  it('shows an unknown error as is, with the operator log to read', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    // An error the catalogue of the operator's vocabulary does not know (validator not found, which it does, has its own rule).
    log.text = log.text.split(JSON.stringify(QUOTA_ERROR).slice(1, -1)).join('widget frobnication failed')
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.summary).toMatch(/: widget frobnication failed$/)
    expect(finding.action).toMatch(/^Read the operator log for this node: kubectl logs -n cosmopilot-system deploy\/cosmopilot -c manager \| grep quota-0$/)
  })

  it('ignores update conflicts, which the next reconcile resolves', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    log.text = log.text
      .split(JSON.stringify(QUOTA_ERROR).slice(1, -1))
      .join(
        'Operation cannot be fulfilled on chainnodes.cosmopilot.voluzi.com \\"quota-0\\": the object has been modified; please apply your changes to the latest version and try again',
      )
    const index = new SnapshotIndex(s)
    expect(reconcileHistory(index, findObject(s, 'ChainNode', 'quota-0'))).toMatchObject({ latestFailed: true, onlyConflicts: true })
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    expect(statusRows(index)[0].operatorError).toBeUndefined()
  })

  it('gives way to priority-class-missing, which now reads the log too', () => {
    const s = load('reconcile-failing')
    const log = s.logs.find((l) => l.container === 'manager')!
    log.text = log.text
      .split(JSON.stringify(QUOTA_ERROR).slice(1, -1))
      .join('failed to create init pod: pods \\"quota-0-init-data\\" is forbidden: no PriorityClass with name cosmopilot-default was found')
    const report = runAllRules(s)
    expect(report.findings.find((f) => f.ruleId === 'priority-class-missing')?.summary).toBe(
      "the node's Pods are refused: PriorityClass cosmopilot-default does not exist",
    )
    expect(report.suppressed).toContainEqual({ ruleId: 'reconcile-failing', node: expect.objectContaining({ name: 'quota-0' }), by: 'priority-class-missing' })
  })

  it('stays quiet once a reconcile goes through, and on a node whose old failure was followed by good reconciles', () => {
    const s = load('reconcile-failing')
    appendManagerLog(s, [
      zapJson(dateBefore(s, -1), 'info', undefined, 'finishing reconcile', {
        ChainNode: { name: 'quota-0', namespace: 'sc-reconcile-failing' },
        reconcileID: 'ok',
      }),
    ])
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
    const solo = load('healthy-no-leader-election')
    expect(solo.logs.find((l) => l.container === 'manager')!.text).toMatch(/"ts":"[^"]+Z","msg":"Reconciler error"/)
    expect(ids(solo)).toEqual([])
  })
})

const clone = useHealthy()

describe('reconcile-failing names what the quota refused', () => {
  it.each([
    [
      'failed to create PVC fullnode-0-wasm: persistentvolumeclaims "fullnode-0-wasm" is forbidden: exceeded quota: storage, requested: requests.storage=100Gi, used: requests.storage=1Ti, limited: requests.storage=1Ti',
      /volumes it creates/,
      /\.spec\.persistence\.size/,
    ],
    [
      'failed to ensure main service for fullnode-0: services "fullnode-0" is forbidden: exceeded quota: svc, requested: services.loadbalancers=1, used: services.loadbalancers=2, limited: services.loadbalancers=2',
      /Services it creates/,
      /\.spec\.expose/,
    ],
    [
      'failed to create pod fullnode-0: pods "fullnode-0" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=7, limited: requests.cpu=8',
      /Pods it creates/,
      /resource requests \(\.spec\.resources\)/,
    ],
  ])('%s', (error, cause, action) => {
    const s = clone()
    failing(s, node(s), error)
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.cause).toMatch(cause)
    expect(finding.action).toMatch(action)
    if (!/pods/.test(error)) expect(finding.action).not.toMatch(/resource requests/)
  })

  it('never says "records no Event" when a Warning Event carries the error', () => {
    const s = clone()
    const error = 'widget frobnication failed: the frobnicator is offline'
    failing(s, node(s), error)
    expect(findingsOf(s, 'reconcile-failing')[0].cause).toMatch(/records no Event/)
    s.objects.push(operatorEvent(node(s), 'FrobFailed', 'Failed to frobnicate: the frobnicator is offline', before(s, 1)))
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.cause).not.toMatch(/no Event/)
    expect(finding.cause).toMatch(/Warning Event FrobFailed/)
    expect(finding.evidence.some((e) => e.source.startsWith('Event Warning FrobFailed'))).toBe(true)
  })
})

const LIMIT_RANGE = 'failed to create init pod: pods "fullnode-0-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'

describe('a LimitRange refusing the init Pod (the real manager, seconds after the node is created)', () => {
  it('is an error with the bound against the limit, and the action names the field and the LimitRange command', () => {
    const s = clone()
    node(s).status.phase = 'InitializingData'
    failing(s, node(s), LIMIT_RANGE)
    const [finding] = findingsOf(s, 'reconcile-failing')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(
      /a LimitRange of the namespace refuses the Pod it creates \(a LimitRange allows at most 1Gi memory per Container, and Pod fullnode-0-init-data asks 2Gi \(its limit\)\)/,
    )
    // The real init Pod asks resources only through the node's additional init commands: .spec.resources cannot help.
    expect(finding.action).toBe(
      'Set the memory limit of the additional init commands of fullnode-0 at or below 1Gi (kubectl edit chainnode fullnode-0 -n sc-healthy: ' +
        ".spec.persistence.additionalInitCommands[].resources, the only resources its data init Pod asks for), or change the LimitRange's maximum (kubectl describe limitrange -n sc-healthy).",
    )
  })

  it('a single failure stays a warning', () => {
    const s = clone()
    healthyManagerLog(s).text += managerLine(node(s), { msg: 'Reconciler error', error: LIMIT_RANGE, at: before(s, 1) }, 'rfc3339')
    expect(findingsOf(s, 'reconcile-failing')[0].severity).toBe('warning')
  })
})
