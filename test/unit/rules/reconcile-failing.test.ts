import { describe, expect, it } from 'vitest'
import { statusRows } from '../../../src/analysis/status-model.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { reconcileFields, reconcilerError, zapJson } from '../../cluster/scenarios/lib/logfmt.js'
import { QUOTA_ERROR } from '../../cluster/scenarios/sc-reconcile-failing.js'
import { findingsOf, findObject, useBundles } from '../../helpers/bundles.js'
import { appendReleaseManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

const load = useBundles('reconcile-failing')

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
