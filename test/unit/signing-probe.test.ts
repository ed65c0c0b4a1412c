/**
 * cluster/signing-probe.ts over answers a real chain gave (test/fixtures/chain-commits), served by height
 * in place of the port-forwards: which node it reads, what it asks for, and where it stops.
 */
import { describe, expect, it } from 'vitest'
import type { PodGet } from '../../src/cluster/chain-probe.js'
import { probeSigning } from '../../src/cluster/signing-probe.js'
import type { ProbeRecord } from '../../src/snapshot/types.js'
import { fourValidators, operatorPubKey } from '../helpers/chain-commits.js'
import type { Editable } from '../helpers/bundles.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const at = new Date().toISOString()
const network = fourValidators.status['val-0'].node_info.network

function validator(name: string, who: string): Editable {
  return {
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name, namespace: 'ns' },
    spec: { validator: {} },
    status: { chainID: network, pubKey: operatorPubKey(fourValidators.genesis[who].pub_key) },
  }
}

function record(pod: string, height?: number): ProbeRecord {
  return {
    kind: 'chain',
    namespace: 'ns',
    pod,
    target: `pod/${pod}:26657`,
    ok: height !== undefined,
    detail: height === undefined ? '/status on 26657: connection refused' : `height ${height}`,
    at,
    chain: {
      problems: [],
      ...(height !== undefined ? { status: { at, height, blockTime: at, catchingUp: false, earliestHeight: 1, network, nodeId: 'x' } } : {}),
    },
  }
}

/** Answers from the recording; every call and path is counted. */
function recordedChain() {
  const asked: { pod: string; paths: string[] }[] = []
  const json = (result: unknown) => ({
    status: 200,
    contentType: 'application/json',
    body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: -1, result })),
    truncated: false,
  })
  const get: PodGet = async (_ns, pod, _port, paths) => {
    asked.push({ pod, paths })
    return paths.map((path) => {
      const height = Number(/height=(\d+)/.exec(path)?.[1])
      if (path.startsWith('/validators')) return json(fourValidators.validators)
      const commit = fourValidators.commits.find((c: any) => Number(c.signed_header.header.height) === height)
      return commit ? json(commit) : json(undefined)
    })
  }
  return { get, asked }
}

describe('the signing read', () => {
  it('reads the window once per chain, from the highest node of the chain: a validator whose own RPC is dead is counted through another', async () => {
    const { get, asked } = recordedChain()
    const records = [record('val-0', 13), record('val-3')]
    await probeSigning(records, [validator('val-0', 'val-0'), validator('val-3', 'val-3')], { get, window: 10 })
    expect(new Set(asked.map((a) => a.pod))).toEqual(new Set(['val-0']))
    expect(asked.flatMap((a) => a.paths).filter((p) => p.startsWith('/commit'))).toHaveLength(10)
    expect(records[0].chain!.signing).toMatchObject({
      source: 'pod/val-0:26657',
      counted: 10,
      signed: 10,
      missed: 0,
      fromHeight: 3,
      toHeight: 12,
      votingPower: 10,
      inActiveSet: true,
    })
    expect(records[1].chain!.signing).toMatchObject({ source: 'pod/val-0:26657', counted: 10, signed: 0, missed: 10, addressFrom: 'pubKey' })
  })

  it('the newest height is left out (its commit is not final); a window past the chain start is cut at height 1', async () => {
    const { get, asked } = recordedChain()
    const records = [record('val-0', 13)]
    await probeSigning(records, [validator('val-0', 'val-0')], { get, window: 100 })
    const heights = asked
      .flatMap((a) => a.paths)
      .filter((p) => p.startsWith('/commit'))
      .map((p) => Number(/height=(\d+)/.exec(p)![1]))
    expect(Math.max(...heights)).toBe(12)
    expect(Math.min(...heights)).toBe(1)
    // Heights 1 and 2 were not recorded: what has no answer is not counted, and says so in one line each (at most three).
    expect(records[0].chain!.signing).toMatchObject({ counted: 10, signed: 10 })
    expect(records[0].chain!.signing!.problems).toEqual([
      '/commit on 26657: a JSON answer without a result',
      '/commit on 26657: a JSON answer without a result',
    ])
  })

  it('a request budget and a deadline bound the read, newest heights first', async () => {
    const { get } = recordedChain()
    const budget = [record('val-0', 13)]
    await probeSigning(budget, [validator('val-0', 'val-0')], { get, window: 10, maxRequests: 5 })
    expect(budget[0].chain!.signing).toMatchObject({ counted: 4, fromHeight: 9, toHeight: 12, requests: 5 })
    expect(budget[0].chain!.signing!.problems[0]).toBe('request budget of 5 reached: 4 of 10 commits read')
    const late = [record('val-0', 13)]
    await probeSigning(late, [validator('val-0', 'val-0')], { get, window: 10, deadlineMs: -1 })
    expect(late[0].chain!.signing).toMatchObject({ counted: 0, requests: 0 })
    expect(late[0].chain!.signing!.problems[0]).toBe('signing deadline of 0s reached: 0 of 10 commits read')
  })

  it('no node of the chain answered: the reading says so, with nothing counted', async () => {
    const { get, asked } = recordedChain()
    const records = [record('val-3')]
    await probeSigning(records, [validator('val-3', 'val-3')], { get, window: 10 })
    expect(asked).toEqual([])
    expect(records[0].chain!.signing).toMatchObject({ counted: 0, source: '', problems: [`no RPC of chain ${network} in scope answered /status`] })
  })
})
