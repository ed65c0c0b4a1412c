import { describe, expect, it } from 'vitest'
import { chainFindingsOf, recorded, useSimdValidator } from '../../helpers/cosmos-chain.js'

const asSimdValidator = useSimdValidator()
/** The chain as it was while proposal 1 was in its voting period (val-0 voted yes, val-1 did not vote). */
const voting = { [recorded.answers.proposalsNone.path]: 'proposalsVoting' }

describe('governance-vote on the recorded chain', () => {
  it('a proposal in voting period the validator has not voted on, with its end and the vote command', async () => {
    const [unvoted] = chainFindingsOf(await asSimdValidator('val-1', voting), 'governance-vote')
    expect(unvoted.summary).toMatch(/^has not voted on proposal 1 "Raise the community tax"/)
    // The healthy bundle's node runs gaiad on cosmoshub-4: the command names them.
    expect(unvoted.action).toBe(
      `Vote from the validator's account: gaiad tx gov vote 1 <yes|no|abstain|no_with_veto> --from <validator account> --chain-id cosmoshub-4 (${recorded.validators['val-1'].account}).`,
    )
  })

  it('quiet for the validator that voted, and when no proposal is open', async () => {
    expect(chainFindingsOf(await asSimdValidator('val-0', voting), 'governance-vote')).toEqual([])
    expect(chainFindingsOf(await asSimdValidator('val-1', {}), 'governance-vote')).toEqual([])
  })
})
