import { describe, expect, it } from 'vitest'
import { chainFindingsOf, recorded, useSimdValidator } from '../../helpers/cosmos-chain.js'

const asSimdValidator = useSimdValidator()

describe('validator-tombstoned on the recorded chain', () => {
  it('tombstoned: validator-tombstoned, not an ordinary jailing', async () => {
    const served = {
      [recorded.answers.signingInfoHealthy.path]: 'signingInfoTombstoned',
      [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorTombstoned',
    }
    const s = await asSimdValidator('val-0', served)
    const [found] = chainFindingsOf(s, 'validator-tombstoned')
    expect(found.summary).toBe(`validator ${recorded.validators['val-0'].valoper} is tombstoned: the chain committed evidence of a double sign`)
    expect(found.action).toMatch(/^Stop every process that still holds this key first/)
    expect(chainFindingsOf(s, 'validator-jailed')).toEqual([])
  })

  it('jailed for downtime (jailed_until set, not tombstoned): none', async () => {
    const served = {
      [recorded.answers.signingInfoHealthy.path]: 'signingInfoJailed',
      [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorJailed',
    }
    expect(chainFindingsOf(await asSimdValidator('val-0', served), 'validator-tombstoned')).toEqual([])
  })
})
