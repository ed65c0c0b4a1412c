import { describe, expect, it } from 'vitest'
import { statusRows } from '../../../src/analysis/status-model.js'
import { errorName, renderStatusText } from '../../../src/render/status.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { failedChainProbe } from '../../helpers/snapshot-edits.js'
import { findingsAtProbe as findingsOf, PROBE_AT as at, runAtProbe as run } from '../../helpers/validator-probes.js'

const clone = useHealthy()

describe('rpc-unreachable', () => {
  /** The healthy bundle, with fullnode-0's chain probe failed for this reason. */
  const withFailedProbe = (detail: string) => {
    const snapshot = clone()
    snapshot.probes.push(failedChainProbe(detail, at))
    return snapshot
  }
  const refused =
    '/status on 26657: error forwarding port 26657 to pod 1b8f, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": dial tcp4 127.0.0.1:26657: connect: connection refused'
  it('a Running node whose RPC refuses: a finding with the reason in one line, and <error: refused> in status -o wide', () => {
    const snapshot = withFailedProbe(refused)
    const [finding] = findingsOf(snapshot, 'rpc-unreachable')
    expect(finding.summary).toBe('RPC pod/fullnode-0:26657 does not answer: /status on 26657: connection refused')
    expect(finding.severity).toBe('warning')
    const node = run(snapshot).nodes.find((n) => n.node.name === 'fullnode-0')!
    expect(node.chain).toMatchObject({ ok: false, reason: 'refused' })
    const index = new SnapshotIndex(snapshot)
    const table = renderStatusText(index, statusRows(index), { withNamespace: false, wide: true })
    expect(table.split('\n').find((l) => l.startsWith('fullnode-0'))).toMatch(/<error: refused>/)
  })

  it('a port-forward that could not be set up says nothing about the RPC: no finding, the line stays under "Measured"', () => {
    const noForward =
      '/status on 26657: error forwarding port 26657 to pod fullnode-0/sc-healthy, uid : forward not found for port 26657 in pod "sc-healthy/fullnode-0"'
    const snapshot = withFailedProbe(noForward)
    expect(findingsOf(snapshot, 'rpc-unreachable')).toEqual([])
    // status -o wide names the error in its cell, not "<error: error>".
    const index = new SnapshotIndex(snapshot)
    const row = renderStatusText(index, statusRows(index), { withNamespace: false, wide: true })
      .split('\n')
      .find((l) => l.startsWith('fullnode-0'))
    expect(row).toContain('<error: forward not found for port 26657 in pod "sc-healthy/fullnode-0">')
  })

  it('an error cell names the error: a known kind in a word, another by the last words of its chain', () => {
    expect(errorName('/status on 26657: dial tcp 127.0.0.1:1: connect: connection refused')).toBe('refused')
    expect(errorName('/status on 26657: upgrade: 403 Forbidden: pods "x" is forbidden')).toBe('pods "x" is forbidden')
    expect(errorName('')).toBe('unknown error')
  })
})
