/**
 * The Cosmos SDK layer over answers a real simd chain gave (test/fixtures/cosmos/record.ts: cosmos-sdk v0.50.3,
 * four validators, one stopped then jailed, one tombstoned by a real double sign, a proposal one validator did not
 * vote on, a passed upgrade plan): each answer decoded, the probe's requests and readings, and the rules on them.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { PodGet } from '../../src/cluster/chain-probe.js'
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
import { consensusAddressOf } from '../../src/snapshot/signing.js'
import type { ProbeRecord, Snapshot } from '../../src/snapshot/types.js'
import type { ChainNode } from '../../src/snapshot/kinds.js'
import { ROOT } from '../helpers/cli.js'
import { editable, runAllRules } from '../helpers/bundles.js'
import { useHealthy } from '../helpers/healthy-edits.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const recorded = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'cosmos', 'simd-answers.json'), 'utf8')) as any
const answer = (name: string) => abciAnswer(recorded.answers[name].result)
const ok = <T>(read: T | { problem: string }): T => {
  expect(read).not.toHaveProperty('problem')
  return read as T
}
const pubKeyOf = (who: string) => JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key: recorded.validators[who].pubKey.value })
const hexOf = (who: string) => consensusAddressOf(pubKeyOf(who))!

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

/** The recorded answers served by path in place of the port-forwards, every path counted. */
function recordedChain(overrides: Record<string, string> = {}) {
  // The first answer recorded at a path is the default (no plan, no proposal yet); later ones are served by name.
  const byPath = new Map<string, unknown>()
  for (const a of Object.values(recorded.answers) as any[]) if (!byPath.has(a.path)) byPath.set(a.path, a.result)
  const asked: string[] = []
  const json = (result: unknown) => ({
    status: 200,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: -1, result })),
    truncated: false,
  })
  const get: PodGet = async (_ns, _pod, _port, paths) => {
    asked.push(...paths)
    return paths.map((p) => {
      if (p.startsWith('/blockchain')) return json(recorded.answers.blockchain.result)
      const name = Object.entries(overrides).find(([path]) => path === p)?.[1]
      return json(name ? recorded.answers[name].result : (byPath.get(p) ?? { response: { code: 22, codespace: 'sdk', log: 'not recorded' } }))
    })
  }
  return { get, asked }
}

const AT = '2026-11-28T18:00:00.000Z'
function chainNode(name: string, who: string, withValoper = true): ChainNode {
  return {
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name, namespace: 'ns' },
    spec: { validator: {}, app: { app: 'simd' } },
    status: { chainID: recorded.chainId, pubKey: pubKeyOf(who), ...(withValoper ? { validatorAddress: recorded.validators[who].valoper } : {}) },
  } as ChainNode
}
function probeRecord(pod: string, height: number, network = recorded.chainId): ProbeRecord {
  return {
    kind: 'chain',
    namespace: 'ns',
    pod,
    target: `pod/${pod}:26657`,
    ok: true,
    detail: `height ${height}`,
    at: AT,
    chain: { problems: [], status: { at: AT, height, blockTime: AT, catchingUp: false, earliestHeight: 1, network, nodeId: 'x' } },
  }
}

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

describe('the rules on the recorded chain', () => {
  const clone = useHealthy()
  /** fullnode-0 of the healthy bundle made the validator `who` of the recorded chain, read through the probe. */
  async function asSimdValidator(who: string, served: Record<string, string>, edit: (node: any) => void = () => {}, height = 40): Promise<Snapshot> {
    const snapshot = clone()
    const node = editable(snapshot).find((o) => o.kind === 'ChainNode' && o.metadata.name === 'fullnode-0')!
    node.spec.validator = { info: { moniker: who } }
    node.status.pubKey = pubKeyOf(who)
    node.status.validatorAddress = recorded.validators[who].valoper
    edit(node)
    const record = { ...probeRecord('fullnode-0', height), namespace: node.metadata.namespace! }
    await probeCosmos([record], [node as ChainNode], { get: recordedChain(served).get })
    snapshot.probes = snapshot.probes.filter((p) => p.kind !== 'chain').concat(record)
    return snapshot
  }
  const findings = (s: Snapshot) =>
    runAllRules(s, {}, Date.parse(AT)).findings.filter((f) => f.ruleId.match(/validator-(jail|tombstone)|upgrade-plan|governance-vote/))

  it('the healthy validator: none', async () => {
    expect(findings(await asSimdValidator('val-0', {}))).toEqual([])
  })

  it('a validator whose counter climbs: jailed after N more missed blocks, at the recent block time', async () => {
    const s = await asSimdValidator('val-0', { [recorded.answers.signingInfoHealthy.path]: 'signingInfoMissing' })
    const [risk] = findings(s)
    const missed = ok(signingInfoOf(answer('signingInfoMissing'))).info.missedBlocksCounter
    expect(risk.ruleId).toBe('validator-jail-risk')
    expect(risk.severity).toBe('warning')
    expect(risk.summary).toMatch(
      new RegExp(
        `^missed ${missed} of the last 20 blocks: jailed after ${11 - missed} more missed blocks? \\(~\\d+s at the recent block time of \\d+\\.\\ds\\)$`,
      ),
    )
  })

  it("jailed by the chain: an error with jailed_until, saying the operator's status disagrees, then agrees", async () => {
    const served = {
      [recorded.answers.signingInfoHealthy.path]: 'signingInfoJailed',
      [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorJailed',
    }
    const disagree = findings(await asSimdValidator('val-0', served, (n) => (n.status.jailed = false)))
    expect(disagree.map((f) => f.ruleId)).toEqual(['validator-jailed'])
    expect(disagree[0].severity).toBe('error')
    expect(disagree[0].summary).toMatch(/ is jailed \((unbonding|unbonded)\)/)
    expect(disagree[0].summary).toContain(`jailed_until ${ok(signingInfoOf(answer('signingInfoJailed'))).info.jailedUntil}`)
    expect(disagree[0].cause).toContain(".status.jailed says false: the operator's status disagrees with the chain")
    const agree = findings(await asSimdValidator('val-0', served, (n) => (n.status.jailed = true)))
    expect(agree[0].cause).toContain('.status.jailed agrees')
  })

  it('tombstoned: validator-tombstoned, not an ordinary jailing', async () => {
    const served = {
      [recorded.answers.signingInfoHealthy.path]: 'signingInfoTombstoned',
      [recorded.answers.stakingValidatorHealthy.path]: 'stakingValidatorTombstoned',
    }
    const found = findings(await asSimdValidator('val-0', served))
    expect(found.map((f) => f.ruleId)).toEqual(['validator-tombstoned'])
    expect(found[0].summary).toBe(`validator ${recorded.validators['val-0'].valoper} is tombstoned: the chain committed evidence of a double sign`)
    expect(found[0].action).toMatch(/^Stop every process that still holds this key first/)
  })

  it('the next upgrade: an error when near with no image, info with one, quiet once the chain is at the height', async () => {
    const served = { [recorded.answers.currentPlanNone.path]: 'currentPlan' }
    const [none] = findings(await asSimdValidator('val-0', served))
    expect(none.ruleId).toBe('upgrade-plan')
    expect(none.severity).toBe('error')
    expect(none.summary).toMatch(
      new RegExp(
        `^upgrade "v2" at height ${recorded.planHeight}, in ${recorded.planHeight - 40} blocks \\(~\\S+ at the recent block time of \\d+\\.\\ds\\): no image is set for it$`,
      ),
    )
    const missing = findings(
      await asSimdValidator('val-0', served, (n) => (n.status.upgrades = [{ height: recorded.planHeight, status: 'image-missing', source: 'on-chain' }])),
    )
    expect(missing[0].summary).toMatch(/no image is set for it \(operator: image-missing\)$/)
    const planned = findings(await asSimdValidator('val-0', served, (n) => (n.spec.app.upgrades = [{ height: recorded.planHeight, image: 'simd:v2' }])))
    expect(planned[0].severity).toBe('info')
    expect(planned[0].summary).toMatch(/: image simd:v2 is set for it$/)
    expect(findings(await asSimdValidator('val-0', served, () => {}, recorded.planHeight))).toEqual([])
  })

  it('governance: a proposal in voting period the validator has not voted on, with its end', async () => {
    const served = { [recorded.answers.proposalsNone.path]: 'proposalsVoting' }
    expect(findings(await asSimdValidator('val-0', served))).toEqual([])
    const [unvoted] = findings(await asSimdValidator('val-1', served))
    expect(unvoted.ruleId).toBe('governance-vote')
    expect(unvoted.summary).toMatch(/^has not voted on proposal 1 "Raise the community tax"/)
    // The healthy bundle's node runs gaiad on cosmoshub-4: the command names them.
    expect(unvoted.action).toBe(
      `Vote from the validator's account: gaiad tx gov vote 1 <yes|no|abstain|no_with_veto> --from <validator account> --chain-id cosmoshub-4 (${recorded.validators['val-1'].account}).`,
    )
  })
})
