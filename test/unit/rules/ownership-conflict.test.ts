import { describe, expect, it } from 'vitest'
import { findingsOf, findObject } from '../../helpers/bundles.js'
import { failReconciles as failing, healthyNode as node, reconcileSucceeds, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const TAKEN = 'ChainNode Service "fullnode-0-internal" is managed by another owner; refusing to overwrite it'

describe('ownership-conflict', () => {
  it('an object the operator must manage belongs to someone else: it refuses, and the action finds the object', () => {
    const s = clone()
    failing(s, node(s), TAKEN)
    const [finding] = findingsOf(s, 'ownership-conflict')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/already exists and belongs to someone else/)
    expect(finding.action).toMatch(
      /^Find who owns Service fullnode-0-internal \(kubectl get service fullnode-0-internal -n sc-healthy -o jsonpath='\{\.metadata\.ownerReferences\}'\)/,
    )
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })

  it("a set refusing to adopt a node it has not recorded is the set's", () => {
    const s = clone()
    failing(s, findObject(s, 'ChainNodeSet', 'hub'), 'refusing to adopt unrecorded ChainNode sc-healthy/hub-fullnodes-2')
    expect(findingsOf(s, 'ownership-conflict')[0].subject).toMatchObject({ kind: 'ChainNodeSet', name: 'hub' })
  })

  it('is over once a reconcile goes through (the object was removed)', () => {
    const s = clone()
    failing(s, node(s), TAKEN)
    reconcileSucceeds(s, node(s))
    expect(findingsOf(s, 'ownership-conflict')).toEqual([])
  })
})
