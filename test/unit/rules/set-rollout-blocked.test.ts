import { describe, expect, it } from 'vitest'
import { findingsOf, findObject } from '../../helpers/bundles.js'
import { failReconciles as failing, reconcileSucceeds, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const WAITING = 'timeout waiting for chainnode hub-fullnodes-1 running or syncing status'

describe('set-rollout-blocked', () => {
  it("says what the node the set waits for is waiting on, with that node's own top cause inline", () => {
    const s = clone()
    const set = findObject(s, 'ChainNodeSet', 'hub')
    const child = findObject(s, 'ChainNode', 'hub-fullnodes-1')
    child.status.phase = 'InitializingData'
    failing(s, set, WAITING)
    failing(s, child, 'failed to create init pod: pods "hub-fullnodes-1-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi')
    const [finding] = findingsOf(s, 'set-rollout-blocked')
    expect(finding.subject).toMatchObject({ kind: 'ChainNodeSet', name: 'hub' })
    expect(finding.cause).toMatch(
      /; hub-fullnodes-1: its reconcile fails: a LimitRange allows at most 1Gi memory per Container, and Pod hub-fullnodes-1-init-data asks 2Gi/,
    )
    expect(finding.action).toMatch(/^Fix what holds hub-fullnodes-1/)
  })

  it('names a node the set waits for that does not exist', () => {
    const s = clone()
    failing(s, findObject(s, 'ChainNodeSet', 'hub'), 'timeout waiting for chainnode hub-fullnodes-7 running or syncing status')
    expect(findingsOf(s, 'set-rollout-blocked')[0].cause).toMatch(/ChainNode hub-fullnodes-7 does not exist$/)
  })

  it('is over once a reconcile of the set goes through after the wait', () => {
    const s = clone()
    const set = findObject(s, 'ChainNodeSet', 'hub')
    failing(s, set, WAITING)
    reconcileSucceeds(s, set)
    expect(findingsOf(s, 'set-rollout-blocked')).toEqual([])
  })
})
