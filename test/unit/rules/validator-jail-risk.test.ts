import { describe, expect, it } from 'vitest'
import { signingInfoOf } from '../../../src/snapshot/cosmos.js'
import { answer, chainFindingsOf, recorded, useSimdValidator } from '../../helpers/cosmos-chain.js'

const asSimdValidator = useSimdValidator()
const missing = { [recorded.answers.signingInfoHealthy.path]: 'signingInfoMissing' }

describe('validator-jail-risk on the recorded chain', () => {
  it('a validator whose counter climbs: jailed after N more missed blocks, at the recent block time', async () => {
    const [risk] = chainFindingsOf(await asSimdValidator('val-0', missing), 'validator-jail-risk')
    const read = signingInfoOf(answer('signingInfoMissing'))
    if ('problem' in read) throw new Error(read.problem)
    const missed = read.info.missedBlocksCounter
    expect(risk.severity).toBe('warning')
    // The recorded window is 20 blocks at min_signed_per_window 0.5: jailed past 10 missed.
    expect(risk.summary).toMatch(
      new RegExp(
        `^missed ${missed} of the last 20 blocks: jailed after ${11 - missed} more missed blocks? \\(~\\d+s at the recent block time of \\d+\\.\\ds\\)$`,
      ),
    )
  })

  it('the healthy validator (no missed block): none', async () => {
    expect(chainFindingsOf(await asSimdValidator('val-0', {}), 'validator-jail-risk')).toEqual([])
  })

  it('the same missed blocks on a node that is no validator: none', async () => {
    const s = await asSimdValidator('val-0', missing, (node) => delete node.spec.validator)
    expect(chainFindingsOf(s, 'validator-jail-risk')).toEqual([])
  })

  it('once jailed it is validator-jailed, no longer a risk', async () => {
    const served = { ...missing, [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorJailed' }
    const s = await asSimdValidator('val-0', served)
    expect(chainFindingsOf(s, 'validator-jail-risk')).toEqual([])
    expect(chainFindingsOf(s, 'validator-jailed')).toHaveLength(1)
  })
})
