/**
 * The answers a real simd chain gave (test/fixtures/cosmos/record.ts: cosmos-sdk v0.50.3, four validators, one
 * stopped then jailed, one tombstoned by a real double sign, a proposal one validator did not vote on, a passed
 * upgrade plan), served by path in place of the port-forwards, and the healthy bundle's fullnode-0 made one of
 * its validators: what the Cosmos probe and the rules on it are tested over.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { PodGet } from '../../src/cluster/chain-probe.js'
import { probeCosmos } from '../../src/cluster/cosmos-probe.js'
import { abciAnswer } from '../../src/snapshot/cosmos.js'
import type { ChainNode } from '../../src/snapshot/kinds.js'
import { consensusAddressOf } from '../../src/snapshot/signing.js'
import type { ProbeRecord, Snapshot } from '../../src/snapshot/types.js'
import { editable, type Editable, runAllRules } from './bundles.js'
import { ROOT } from './cli.js'
import { useHealthy } from './healthy-edits.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export const recorded = JSON.parse(readFileSync(path.join(ROOT, 'test', 'fixtures', 'cosmos', 'simd-answers.json'), 'utf8')) as any
/** The recorded answer of this name, decoded from its abci_query result. */
export const answer = (name: string) => abciAnswer(recorded.answers[name].result)
/** The consensus public key of a recorded validator, as the operator writes it in .status.pubKey. */
export const pubKeyOf = (who: string) => JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key: recorded.validators[who].pubKey.value })
export const hexOf = (who: string) => consensusAddressOf(pubKeyOf(who))!

/** The recorded answers served by path in place of the port-forwards, every path counted. */
export function recordedChain(overrides: Record<string, string> = {}) {
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

/** When the probes read the recorded chain. */
export const AT = '2026-11-28T18:00:00.000Z'

export function chainNode(name: string, who: string, withValoper = true): ChainNode {
  return {
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name, namespace: 'ns' },
    spec: { validator: {}, app: { app: 'simd' } },
    status: { chainID: recorded.chainId, pubKey: pubKeyOf(who), ...(withValoper ? { validatorAddress: recorded.validators[who].valoper } : {}) },
  } as ChainNode
}

export function probeRecord(pod: string, height: number, network = recorded.chainId): ProbeRecord {
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

/**
 * Reads the healthy bundle before the file's tests run; the function returned makes its fullnode-0 the validator
 * `who` of the recorded chain (at `height`), read through the Cosmos probe with the answers `served` by name.
 */
export function useSimdValidator() {
  const clone = useHealthy()
  return async (who: string, served: Record<string, string>, edit: (node: Editable) => void = () => {}, height = 40): Promise<Snapshot> => {
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
}

/** The findings of one rule among all registered rules, at the time the chain was read. */
export const chainFindingsOf = (s: Snapshot, id: string) => runAllRules(s, {}, Date.parse(AT)).findings.filter((f) => f.ruleId === id)
