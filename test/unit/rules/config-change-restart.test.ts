import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { failReconciles as failing, healthyNode as node, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('config-change-restart', () => {
  it('says nothing of a restart for a spec edit the operator refuses, and never prints two equal hashes as differing', () => {
    const s = clone()
    node(s).metadata.generation = 2
    expect(findingsOf(s, 'config-change-restart')[0].cause).toMatch(/built for generation 1 of the ChainNode, which is now at 2/)
    expect(findingsOf(s, 'config-change-restart')[0].cause).not.toMatch(/differs/)
    // A fresh copy: the log of the first run is split and cached per record.
    const refused = clone()
    node(refused).metadata.generation = 2
    failing(refused, node(refused), 'spec.persistence.size: Invalid value: "10Gi": must not shrink')
    expect(findingsOf(refused, 'config-change-restart')).toEqual([])
  })
})
