import { describe, expect, it } from 'vitest'
import { fourValidators } from '../../helpers/chain-commits.js'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { asValidator, findingsAtProbe as findingsOf, PROBE_AT as at, runAtProbe as run } from '../../helpers/validator-probes.js'

const clone = useHealthy()

describe('double-sign-risk', () => {
  it('two running nodes of one chain presenting one key with power: an error on each, first in the report', () => {
    const snapshot = clone()
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    asValidator(snapshot, 'hub-fullnodes-1', 'val-1')
    // An error on a node whose name sorts first does not come before it.
    snapshot.logs.find((l) => l.pod === 'fullnode-0' && l.container === 'app' && !l.previous)!.text += `${at} CONSENSUS FAILURE!!! err=boom\n`
    const report = run(snapshot)
    expect(report.findings.some((f) => f.ruleId === 'consensus-failure' && f.node.name === 'fullnode-0')).toBe(true)
    const found = report.findings.filter((f) => f.ruleId === 'double-sign-risk')
    expect(found.map((f) => f.node.name).sort()).toEqual(['hub-fullnodes-0', 'hub-fullnodes-1'])
    expect(found[0].summary).toMatch(new RegExp(`^2 running nodes sign as validator ${fourValidators.genesis['val-1'].address} on kvstore-record-1`))
    expect(report.findings[0].ruleId).toBe('double-sign-risk')
  })

  it('a standby at height 0 reports power 0 for the key: the power the chain gives that key counts', () => {
    const snapshot = clone()
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    const standby = asValidator(snapshot, 'hub-fullnodes-1', 'val-1', { power: 0 })
    standby.chain!.status!.height = 0
    const found = findingsOf(snapshot, 'double-sign-risk')
    expect(found).toHaveLength(2)
    expect(found.find((f) => f.node.name === 'hub-fullnodes-0')!.evidence[1].text).toMatch(/voting_power 0 \(10 in the chain's validator set\), height 0$/)
  })

  it('another chain, or a key without voting power, is no risk', () => {
    const snapshot = clone()
    asValidator(snapshot, 'hub-fullnodes-0', 'val-1')
    asValidator(snapshot, 'hub-fullnodes-1', 'val-1', { network: 'other-1' })
    expect(findingsOf(snapshot, 'double-sign-risk')).toEqual([])
    const zero = clone()
    asValidator(zero, 'hub-fullnodes-0', 'val-1')
    const other = asValidator(zero, 'hub-fullnodes-1', 'val-1', { power: 0 })
    other.chain!.signing!.votingPower = 0
    expect(findingsOf(zero, 'double-sign-risk')).toEqual([])
  })
})
