/**
 * The signing count on what a real CometBFT v0.38 chain answered (test/fixtures/chain-commits, recorded
 * by record.ts there): four validators of equal power, val-3 running with a key that is not its genesis key.
 */
import { describe, expect, it } from 'vitest'
import { commitSigners, consensusAddressOf, countSigning, foldProblem, rpcFailureOf, validatorPowers } from '../../src/snapshot/signing.js'
import { fourValidators, operatorPubKey } from '../helpers/chain-commits.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const commits = () => fourValidators.commits.map(commitSigners)

describe('consensus address of a validator key', () => {
  it('is the first 20 bytes of SHA-256 of the ed25519 key, from every form the key comes in', () => {
    // The operator's own example: priv_validator_key address 0E85…, pubKey as the operator writes it.
    const key = 'WSNiGcovSATN09MKkaqFDOQgypn1FPDhVwfYIPFVp34='
    expect(consensusAddressOf(`{"@type":"/cosmos.crypto.ed25519.PubKey","key":"${key}"}`)).toBe('0E85BC4610C7710A01CA6CC98E2CC5CFE9935690')
    expect(consensusAddressOf(`{"type":"tendermint/PubKeyEd25519","value":"${key}"}`)).toBe('0E85BC4610C7710A01CA6CC98E2CC5CFE9935690')
    expect(consensusAddressOf(key)).toBe('0E85BC4610C7710A01CA6CC98E2CC5CFE9935690')
    for (const [name, v] of Object.entries(fourValidators.genesis) as [string, any][])
      expect({ name, address: consensusAddressOf(operatorPubKey(v.pub_key)) }).toEqual({ name, address: v.address })
  })

  it('is undefined for another key type, a short key or something that is not a key', () => {
    expect(consensusAddressOf('{"@type":"/cosmos.crypto.secp256k1.PubKey","key":"A8u1Yd5Yk3sVbq9e3r6d1m0Wm2QkYl0hQ3b5H6p7q8r9"}')).toBeUndefined()
    expect(consensusAddressOf('{"@type":"/cosmos.crypto.ed25519.PubKey","key":"eA=="}')).toBeUndefined()
    expect(consensusAddressOf('{not json')).toBeUndefined()
    expect(consensusAddressOf(42)).toBeUndefined()
    expect(consensusAddressOf('x'.repeat(5000))).toBeUndefined()
  })
})

describe('counting signatures in recorded commits', () => {
  it('reads every commit of the window with its height, time and signers', () => {
    const read = commits()
    expect(read.map((c: any) => c.height)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    expect(read.every((c: any) => c.signers.size === 3 && typeof c.time === 'string')).toBe(true)
  })

  it('a validator that signs every block: 10 of 10, nothing missed', () => {
    expect(countSigning(commits(), fourValidators.genesis['val-0'].address)).toMatchObject({
      counted: 10,
      signed: 10,
      missed: 0,
      missedHeights: [],
      fromHeight: 3,
      toHeight: 12,
    })
  })

  it('the validator whose process runs another key misses every block, from the first height of the window', () => {
    const read = commits()
    const counted = countSigning(read, fourValidators.genesis['val-3'].address.toLowerCase())
    expect(counted).toMatchObject({ counted: 10, signed: 0, missed: 10, missedHeights: [3, 4, 5, 6, 7, 8, 9, 10, 11, 12], lastSigned: undefined })
    expect(counted.firstMissed).toEqual({ height: 3, time: read[0].time })
    // The key it runs with is nowhere in the commits either: it is not a validator of this chain.
    expect(countSigning(read, fourValidators.wrongKey.address).signed).toBe(0)
  })

  it('the validator set: four of power 10; the key val-3 runs with is not in it, and its own /status says power 0', () => {
    const powers = validatorPowers([fourValidators.validators])
    expect([...powers.values()]).toEqual([10, 10, 10, 10])
    expect(powers.get(fourValidators.genesis['val-3'].address)).toBe(10)
    expect(powers.has(fourValidators.wrongKey.address)).toBe(false)
    expect(fourValidators.status['val-3'].validator_info).toMatchObject({ address: fourValidators.wrongKey.address, voting_power: '0' })
  })

  it('a nil vote counts as signed, an absent one as missed; what is not a commit is skipped', () => {
    const [first] = structuredClone(fourValidators.commits)
    const val0 = first.signed_header.commit.signatures.find((s: any) => s.validator_address === fourValidators.genesis['val-0'].address)
    val0.block_id_flag = 3
    expect(countSigning([commitSigners(first)!], fourValidators.genesis['val-0'].address).signed).toBe(1)
    val0.block_id_flag = 1
    expect(countSigning([commitSigners(first)!], fourValidators.genesis['val-0'].address).missed).toBe(1)
    expect(commitSigners({ signed_header: { commit: { height: '-1', signatures: [] } } })).toBeUndefined()
    expect(commitSigners({ __proto__: { signed_header: 1 } })).toBeUndefined()
    expect(commitSigners('<html>')).toBeUndefined()
  })
})

describe('RPC failures folded to one line', () => {
  const refused =
    '/status on 26657: error forwarding port 26657 to pod 1b8f0e5a, uid : failed to execute portforward in network namespace "/var/run/netns/cni-1": failed to connect to localhost:26657 inside namespace "1b8f0e5a", IPv4: dial tcp4 127.0.0.1:26657: connect: connection refused IPv6 dial tcp6 [::1]:26657: connect: connection refused'
  it('names the reason in a word and keeps the line short', () => {
    expect(rpcFailureOf(refused)).toBe('refused')
    expect(rpcFailureOf('/status on 26657: no answer within 5s')).toBe('timeout')
    expect(rpcFailureOf('/status on 26657: read ECONNRESET')).toBe('reset')
    expect(rpcFailureOf('/status on 26657: answered HTTP 200 with something that is not JSON: hello')).toBe('not JSON')
    const folded = foldProblem(refused)
    expect(folded).toBe('/status on 26657: connection refused')
    expect(foldProblem('/status on 26657: no answer within 5s')).toBe('/status on 26657: timeout (no answer within 5s)')
    expect(foldProblem(`/status on 26657: ${'x'.repeat(300)}\nsecond line`).length).toBeLessThanOrEqual(80)
  })
})
