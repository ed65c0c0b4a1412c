/**
 * The Cosmos SDK layer over answers a real simd chain gave (test/fixtures/cosmos/record.ts: cosmos-sdk v0.50.3,
 * four validators, one stopped then jailed, one tombstoned by a real double sign, a proposal one validator did not
 * vote on, a passed upgrade plan): each answer decoded, and the probe's requests and readings. The rules on them
 * are tested in their own files (test/unit/rules/<id>.test.ts, over test/helpers/cosmos-chain.ts).
 */
import { describe, expect, it } from 'vitest'
import { probeCosmos } from '../../src/cluster/cosmos-probe.js'
import {
  abciAnswer,
  accountOfValoper,
  jailArithmetic,
  legacyDec,
  meanBlockMs,
  prefixOf,
  proposalsOf,
  signingInfoOf,
  slashingParamsOf,
  stakingValidatorOf,
  upgradePlanOf,
  validatorsPageOf,
  valconsOf,
  voteOf,
} from '../../src/snapshot/cosmos.js'
import { answer, chainNode, hexOf, probeRecord, recorded, recordedChain } from '../helpers/cosmos-chain.js'

const ok = <T>(read: T | { problem: string }): T => {
  expect(read).not.toHaveProperty('problem')
  return read as T
}

describe('decoding what simd answered over abci_query', () => {
  it('the account prefix, and the address forms converted from it', () => {
    const { prefix } = ok(prefixOf(answer('prefix')))
    expect(prefix).toBe('cosmos')
    for (const who of ['val-0', 'val-1', 'val-2', 'val-3']) {
      // The valcons the chain itself wrote in the signing info is the one converted from the consensus key.
      expect(valconsOf(prefix, hexOf(who))).toBe(recorded.validators[who].consensusAddress)
      expect(accountOfValoper(recorded.validators[who].valoper)).toEqual({ prefix: 'cosmos', account: recorded.validators[who].account })
    }
    expect(accountOfValoper(recorded.validators['val-0'].account)).toBeUndefined()
  })

  it('a kvstore chain answers the same query with no prefix: not a Cosmos SDK chain', () => {
    const kv = answer('kvstorePrefix')
    expect(kv).toHaveProperty('value')
    expect(prefixOf(kv)).toEqual({ problem: 'no bech32 prefix in the answer' })
    expect(slashingParamsOf(answer('kvstoreSlashingParams'))).toHaveProperty('problem')
  })

  it("x/slashing's params: the window and the fraction from the genesis, the LegacyDec read as a fraction", () => {
    const { params } = ok(slashingParamsOf(answer('slashingParams')))
    expect(params).toMatchObject({
      signedBlocksWindow: 20,
      minSignedPerWindow: 0.5,
      downtimeJailSeconds: 60,
      slashFractionDoubleSign: 0.05,
      slashFractionDowntime: 0.01,
    })
    expect(jailArithmetic(params, 0)).toEqual({ maxMissed: 10, remaining: 11 })
    expect(jailArithmetic(params, 10)).toEqual({ maxMissed: 10, remaining: 1 })
    expect(legacyDec(new TextEncoder().encode('not a number'))).toBeUndefined()
  })

  it('signing infos: a healthy one, one that misses, one jailed, one tombstoned', () => {
    expect(ok(signingInfoOf(answer('signingInfoHealthy'))).info).toMatchObject({
      missedBlocksCounter: 0,
      tombstoned: false,
      address: recorded.validators['val-0'].consensusAddress,
    })
    expect(ok(signingInfoOf(answer('signingInfoMissing'))).info.missedBlocksCounter).toBeGreaterThanOrEqual(3)
    const jailed = ok(signingInfoOf(answer('signingInfoJailed'))).info
    expect(Date.parse(jailed.jailedUntil!)).toBeGreaterThan(Date.parse('2026-01-01'))
    expect(jailed.tombstoned).toBe(false)
    const tombstoned = ok(signingInfoOf(answer('signingInfoTombstoned'))).info
    expect(tombstoned.tombstoned).toBe(true)
  })

  it('staking records: bonded, and jailed out of the set', () => {
    expect(ok(stakingValidatorOf(answer('stakingValidatorHealthy'))).staking).toMatchObject({
      jailed: false,
      status: 'bonded',
      operatorAddress: recorded.validators['val-0'].valoper,
    })
    expect(ok(stakingValidatorOf(answer('stakingValidatorJailed'))).staking).toMatchObject({
      jailed: true,
      operatorAddress: recorded.validators['val-2'].valoper,
    })
    expect(ok(stakingValidatorOf(answer('stakingValidatorTombstoned'))).staking.jailed).toBe(true)
  })

  it("the validator list maps each consensus key's address to its valoper", () => {
    const page = ok(validatorsPageOf(answer('validatorsPage')))
    for (const who of ['val-0', 'val-1', 'val-2', 'val-3']) expect(page.byConsensus.get(hexOf(who))).toBe(recorded.validators[who].valoper)
    expect(page.next).toBeUndefined()
  })

  it("the upgrade plan: none, then the passed proposal's", () => {
    expect(ok(upgradePlanOf(answer('currentPlanNone'))).plan).toBeNull()
    expect(ok(upgradePlanOf(answer('currentPlan'))).plan).toEqual({ name: 'v2', height: recorded.planHeight, info: '' })
  })

  it('proposals in voting period and votes: cast, and not cast', () => {
    expect(ok(proposalsOf(answer('proposalsNone')))).toEqual({ proposals: [], total: 0 })
    const { proposals } = ok(proposalsOf(answer('proposalsVoting')))
    expect(proposals).toEqual([
      { id: '1', title: 'Raise the community tax', votingStartTime: expect.any(String), votingEndTime: expect.any(String), expedited: false },
    ])
    expect(Date.parse(proposals[0].votingEndTime!) - Date.parse(proposals[0].votingStartTime!)).toBe(300_000)
    expect(voteOf(answer('voteYes'))).toEqual({ options: ['yes'] })
    expect(voteOf(answer('voteNone'))).toEqual({ options: null })
  })

  it('the mean block time of the recent blocks', () => {
    const mean = meanBlockMs(recorded.answers.blockchain.result)!
    expect(mean.blocks).toBeGreaterThanOrEqual(10)
    expect(mean.ms).toBeGreaterThan(900)
    expect(mean.ms).toBeLessThan(10_000)
  })

  it('answers that are not answers: a refusal, no response, a value that is not the message', () => {
    expect(abciAnswer({ response: { code: 6, codespace: 'sdk', log: 'unknown query path' } })).toEqual({ code: 6, codespace: 'sdk', log: 'unknown query path' })
    expect(abciAnswer(undefined)).toEqual({ problem: 'no answer' })
    expect(abciAnswer({})).toEqual({ problem: 'an abci_query answer without a response' })
    expect(abciAnswer({ response: { value: '<html>' } })).toEqual({ problem: 'a value that is not base64' })
    expect(signingInfoOf({ value: new Uint8Array([0xff, 0xff, 0xff]), height: 1 })).toHaveProperty('problem')
    expect(slashingParamsOf({ code: 6, codespace: 'sdk', log: 'unknown query path' })).toEqual({ problem: 'the app answered code 6 (sdk): unknown query path' })
  })
})

describe('the Cosmos probe over the recorded chain', () => {
  it("reads the chain's part once from its highest node, and each validator's signing info, staking record and votes", async () => {
    // Served as it was when proposal 1 was open.
    const { get, asked } = recordedChain({ [recorded.answers.proposalsNone.path]: 'proposalsVoting' })
    const nodes = [chainNode('val-0', 'val-0'), chainNode('val-1', 'val-1')]
    const records = [probeRecord('val-0', 40), probeRecord('val-1', 41)]
    await probeCosmos(records, nodes, { get })
    const [a, b] = records.map((r) => r.chain!.cosmos!)
    expect(a.source).toBe('pod/val-1:26657')
    expect(a).toMatchObject({ prefix: 'cosmos', slashing: { signedBlocksWindow: 20 }, upgradePlan: null, proposals: [{ id: '1' }], unknown: {} })
    expect(a.validator).toMatchObject({
      consensusAddress: hexOf('val-0'),
      valcons: recorded.validators['val-0'].consensusAddress,
      valoper: recorded.validators['val-0'].valoper,
      valoperFrom: 'status',
      account: recorded.validators['val-0'].account,
      signingInfo: { missedBlocksCounter: 0, tombstoned: false },
      staking: { jailed: false, status: 'bonded' },
      votes: { '1': ['yes'] },
    })
    expect(b.validator!.votes).toEqual({ '1': null })
    // 4 chain queries + /blockchain, then per validator: signing info, staking, one vote.
    expect(a.requests).toBe(5 + 2 * 3)
    expect(asked.length).toBe(a.requests)
    expect(asked.filter((p) => p.startsWith('/abci_query?path=%22/cosmos.slashing.v1beta1.Query/Params%22'))).toHaveLength(1)
  })

  it('a valoper the operator has not written is found on the chain by the consensus key', async () => {
    const { get } = recordedChain()
    const records = [probeRecord('val-2', 40)]
    await probeCosmos(records, [chainNode('val-2', 'val-2', false)], { get })
    expect(records[0].chain!.cosmos!.validator).toMatchObject({
      valoper: recorded.validators['val-2'].valoper,
      valoperFrom: 'chain',
      staking: { jailed: true },
    })
  })

  it('a kvstore chain: every part cannot tell, and says why', async () => {
    const { get } = recordedChain({ [recorded.answers.prefix.path]: 'kvstorePrefix' })
    const records = [probeRecord('val-0', 40, 'kvstore-1')]
    await probeCosmos(records, [chainNode('val-0', 'val-0')], { get })
    const cosmos = records[0].chain!.cosmos!
    expect(cosmos.slashing).toBeUndefined()
    expect(cosmos.unknown.slashing).toBe('not a Cosmos SDK chain (auth Bech32Prefix: no bech32 prefix in the answer)')
    expect(cosmos.unknown.validator).toBe(cosmos.unknown.slashing)
    expect(cosmos.requests).toBe(5)
  })

  it("a budget cuts the validators' part, never the chain's, and says so", async () => {
    const { get } = recordedChain()
    const records = [probeRecord('val-0', 40)]
    await probeCosmos(records, [chainNode('val-0', 'val-0')], { get, maxRequests: 4 })
    const cosmos = records[0].chain!.cosmos!
    expect(cosmos.slashing).toBeDefined()
    expect(cosmos.validator!.signingInfo).toBeUndefined()
    expect(cosmos.unknown.chain).toBe('reading cut short: request budget of 4 reached')
  })
})
