import { describe, expect, it } from 'vitest'
import { signingInfoOf } from '../../../src/snapshot/cosmos.js'
import { findingsOf } from '../../helpers/bundles.js'
import { answer, chainFindingsOf, recorded, useSimdValidator } from '../../helpers/cosmos-chain.js'
import { operatorEvent } from '../../helpers/operator-records.js'
import { healthyNode as node, minutesBefore as before, useHealthy } from '../../helpers/healthy-edits.js'

const clone = useHealthy()

describe('validator-jailed', () => {
  it('reports a jailed validator with the unjail command and what to check first', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: true, validatorStatus: 'unbonding', validatorAddress: 'cosmosvaloper1abc', chainID: 'hub-1' })
    node(s).spec.app.app = 'gaiad'
    const [finding] = findingsOf(s, 'validator-jailed')
    expect(finding.severity).toBe('error')
    expect(finding.action).toMatch(/^First fix why it stopped signing/)
    expect(finding.action).toMatch(/gaiad tx slashing unjail --from <validator account> --chain-id hub-1/)
    expect(finding.action).toMatch(/tombstoned/)
  })

  it('trusts a fresh status over an older ValidatorJailed Event that a ValidatorUnjailed followed', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: false, validatorStatus: 'bonded' })
    s.objects.push(operatorEvent(node(s), 'ValidatorJailed', 'Validator is jailed', before(s, 30)))
    s.objects.push(operatorEvent(node(s), 'ValidatorUnjailed', 'Validator was successfully unjailed', before(s, 5), 'Normal'))
    expect(findingsOf(s, 'validator-jailed')).toEqual([])
  })

  it('reads the Event while the status is stale (phase not Running)', () => {
    const s = clone()
    Object.assign(node(s).status, { jailed: false, phase: 'Syncing' })
    s.objects.push(operatorEvent(node(s), 'ValidatorJailed', 'Validator is jailed', before(s, 5)))
    const [finding] = findingsOf(s, 'validator-jailed')
    expect(finding.cause).toMatch(/read from the ValidatorJailed Event; \.status is not refreshed in phase Syncing/)
  })
})

describe('validator-jailed on the recorded chain', () => {
  const asSimdValidator = useSimdValidator()
  const served = {
    [recorded.answers.signingInfoHealthy.path]: 'signingInfoJailed',
    [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorJailed',
  }

  it("jailed by the chain: an error with jailed_until, saying the operator's status disagrees, then agrees", async () => {
    const [disagree] = chainFindingsOf(await asSimdValidator('val-0', served, (n) => (n.status.jailed = false)), 'validator-jailed')
    expect(disagree.severity).toBe('error')
    expect(disagree.summary).toMatch(/ is jailed \((unbonding|unbonded)\)/)
    const info = signingInfoOf(answer('signingInfoJailed'))
    if ('problem' in info) throw new Error(info.problem)
    expect(disagree.summary).toContain(`jailed_until ${info.info.jailedUntil}`)
    expect(disagree.cause).toContain(".status.jailed says false: the operator's status disagrees with the chain")
    const [agree] = chainFindingsOf(await asSimdValidator('val-0', served, (n) => (n.status.jailed = true)), 'validator-jailed')
    expect(agree.cause).toContain('.status.jailed agrees')
  })

  it('the healthy validator: none', async () => {
    expect(chainFindingsOf(await asSimdValidator('val-0', {}), 'validator-jailed')).toEqual([])
  })
})
