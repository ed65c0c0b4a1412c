import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findingsOf } from '../../helpers/bundles.js'
import { operatorEvent } from '../../helpers/operator-records.js'
import { healthyNode as node, useHealthy } from '../../helpers/healthy-edits.js'
import { secondsBefore as before } from '../../helpers/snapshot-edits.js'

const clone = useHealthy()

/** fullnode-0's own chain probe: its height, whether it catches up, and what node-utils answered. */
const probe = (s: Snapshot, height: number, catchingUp: boolean, nodeUtils?: { problems: string[]; latestHeight?: number }) =>
  s.probes.push({
    kind: 'chain',
    namespace: 'sc-healthy',
    pod: 'fullnode-0',
    target: 'fullnode-0:26657',
    ok: true,
    detail: `height ${height}`,
    at: s.collectedAt,
    chain: {
      status: { at: s.collectedAt, height, catchingUp, earliestHeight: 1, network: 'cosmoshub-4', nodeId: 'abc' },
      ...(nodeUtils ? { nodeUtils: { port: 8000, at: s.collectedAt, ...nodeUtils } } : {}),
      problems: [],
    },
  })
const noPeers = (s: Snapshot) =>
  s.objects.push(operatorEvent(node(s), 'NoPeers', 'not restoring from state-sync: could not find other peers for this chain', before(s, 120)))

describe("state-sync-blocked, against the node's own height", () => {
  it('a restore the operator could not set up, on a node replaying the chain from its first blocks', () => {
    const s = clone()
    noPeers(s)
    probe(s, 1200, true)
    const [finding] = findingsOf(s, 'state-sync-blocked')
    expect(finding.severity).toBe('error')
    expect(finding.cause).toMatch(/; its own \/status: height 1200, catching_up true: it replays the chain block by block instead of restoring$/)
  })

  it('is over once the node is synced', () => {
    const s = clone()
    noPeers(s)
    probe(s, 21_000_000, false)
    expect(findingsOf(s, 'state-sync-blocked')).toEqual([])
  })

  it('the snapshot list the operator cannot read: a finding on a node that serves none too, with what our own probe saw', () => {
    const s = clone()
    const text =
      'not adding state-sync details: failed to list state-sync snapshots for fullnode-0: Get "http://fullnode-0-internal.sc-healthy.svc.cluster.local:8000/snapshots": dial tcp 10.96.0.12:8000: connect: connection refused'
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', text, before(s, 30)))
    probe(s, 500, false, { problems: ['GET /latest_height: connection refused'] })
    const [finding] = findingsOf(s, 'state-sync-blocked')
    expect(finding.severity).toBe('warning')
    expect(finding.cause).toMatch(
      /cannot read the node's state-sync snapshot list .*: 10\.96\.0\.12:8000 answers connection refused; node-utils did not answer our probe either/,
    )
  })

  it('"no state-sync snapshots available" on a node that serves none is routine, and a finding on one that serves them', () => {
    const s = clone()
    s.objects.push(operatorEvent(node(s), 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available', before(s, 30)))
    expect(findingsOf(s, 'state-sync-blocked')).toEqual([])
    node(s).spec.config = { ...node(s).spec.config, stateSync: { snapshotInterval: 1000 } }
    expect(findingsOf(s, 'state-sync-blocked')).toHaveLength(1)
  })
})
