import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { failReconciles as failing, healthyNode as node, nodeEvent, reconcileSucceeds, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('oom-recovery', () => {
  it('an emergency scale-up is a warning; the recovery limit reached is an error that says a leak is likely', () => {
    const s = clone()
    nodeEvent(s, 'VPAEmergencyScaleUp', 'Emergency memory scale-up due to OOM: 4Gi -> 6Gi (recovery 1/3)', 30)
    const [scaled] = findingsOf(s, 'oom-recovery')
    expect(scaled.severity).toBe('warning')
    expect(scaled.cause).toMatch(/^the node was OOMKilled and the operator raised its memory request in an emergency/)
    nodeEvent(s, 'VPAOOMRecoveryLimitReached', 'OOM recovery limit reached (3/3 in 1h0m0s). Possible memory leak - manual intervention required.', 2)
    const [limit] = findingsOf(s, 'oom-recovery')
    expect(limit.severity).toBe('error')
    expect(limit.cause).toMatch(/stopped raising its memory: a leak, or a limit far too low/)
  })

  it('a VPA without a request to scale from, until a reconcile goes through', () => {
    const s = clone()
    failing(s, node(s), 'no memory request found')
    expect(findingsOf(s, 'oom-recovery')[0].action).toMatch(/^Set requests in \.spec\.resources/)
    const recovered = clone()
    failing(recovered, node(recovered), 'no memory request found')
    reconcileSucceeds(recovered, node(recovered))
    expect(findingsOf(recovered, 'oom-recovery')).toEqual([])
  })
})
