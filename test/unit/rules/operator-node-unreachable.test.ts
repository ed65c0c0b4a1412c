import { describe, expect, it } from 'vitest'
import { findingsOf } from '../../helpers/bundles.js'
import { failReconciles as failing, healthyNode as node, reconcileSucceeds, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()
const UNREACHABLE =
  'failed to check if node fullnode-0 is syncing: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 10.96.0.12:9090: connect: connection refused"'

describe('operator-node-unreachable', () => {
  it("the operator cannot query the node's gRPC: an error that says its status is stale, and what to check", () => {
    const s = clone()
    failing(s, node(s), UNREACHABLE)
    const [finding] = findingsOf(s, 'operator-node-unreachable')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/^the operator cannot query the node's gRPC \(9090\) or node-utils \(8000\)/)
    expect(finding.action).toMatch(/kubectl chainnode logs fullnode-0 -n sc-healthy -c node-utils/)
    expect(findingsOf(s, 'reconcile-failing')).toEqual([])
  })

  it('a restart deferred by the disruption check is only a warning', () => {
    const s = clone()
    failing(s, node(s), '2 pods are unavailable')
    expect(findingsOf(s, 'operator-node-unreachable')[0].severity).toBe('warning')
  })

  it('is over once a reconcile goes through after the failures', () => {
    const s = clone()
    failing(s, node(s), UNREACHABLE)
    reconcileSucceeds(s, node(s))
    expect(findingsOf(s, 'operator-node-unreachable')).toEqual([])
  })
})
