import { describe, expect, it } from 'vitest'
import { countSigning } from '../../../src/snapshot/signing.js'
import { fourValidators } from '../../helpers/chain-commits.js'
import { useHealthy } from '../../helpers/healthy-edits.js'
import { asValidator, findingsAtProbe as findingsOf, recordedCommits as commits } from '../../helpers/validator-probes.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const clone = useHealthy()

describe('validator-missed-blocks on commits of a real chain', () => {
  it('the validator that signs every block: no finding', () => {
    const snapshot = clone()
    asValidator(snapshot, 'fullnode-0', 'val-0')
    expect(findingsOf(snapshot, 'validator-missed-blocks')).toEqual([])
  })

  it('the validator whose process runs another key: an error with the window, the first miss, and the key it runs with', () => {
    const snapshot = clone()
    asValidator(snapshot, 'fullnode-0', 'val-3', { presents: fourValidators.wrongKey.address, power: 0 })
    const [finding] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toBe(
      `missed 10 of the last 10 blocks (heights 3-12; first missed 3 at ${fourValidators.commits[0].signed_header.header.time}); node synced`,
    )
    expect(finding.cause).toContain(
      `the process signs with ${fourValidators.wrongKey.address} (its /status validator_info), not with the ChainNode's key ${fourValidators.genesis['val-3'].address}`,
    )
    expect(finding.since).toBe(fourValidators.commits[0].signed_header.header.time)
    expect(finding.evidence[0].text).toMatch(/signed 0 of 10 commits \(heights 3-12\), missed 3, 4, 5/)
  })

  it('thresholds are flags: 6 of 10 missed is a warning by default, an error with --missed-blocks-error 6, nothing with --missed-blocks-warning 7', () => {
    const snapshot = clone()
    const record = asValidator(snapshot, 'fullnode-0', 'val-0')
    // val-0's votes taken out of the first six recorded commits: absent, as a late vote would be.
    const address = fourValidators.genesis['val-0'].address
    const thinned = commits().map((c: any, i: number) => (i < 6 ? { ...c, signers: new Set([...c.signers].filter((a) => a !== address)) } : c))
    Object.assign(record.chain!.signing!, countSigning(thinned, address))
    const [warning] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(warning.severity).toBe('warning')
    expect(warning.summary).toMatch(/^missed 6 of the last 10 blocks \(heights 3-12; first missed 3 at /)
    expect(findingsOf(snapshot, 'validator-missed-blocks', { missedBlocks: { warning: 5, error: 6 } })[0].severity).toBe('error')
    expect(findingsOf(snapshot, 'validator-missed-blocks', { missedBlocks: { warning: 7, error: 20 } })).toEqual([])
  })

  it('a key absent from /validators is "not in the active set"', () => {
    const snapshot = clone()
    const record = asValidator(snapshot, 'fullnode-0', 'val-0')
    Object.assign(record.chain!.signing!, { inActiveSet: false, votingPower: 0 })
    const [finding] = findingsOf(snapshot, 'validator-missed-blocks')
    expect(finding.summary).toBe(`validator ${fourValidators.genesis['val-0'].address} is not in the active set (voting power 0)`)
    expect(finding.severity).toBe('error')
  })
})
