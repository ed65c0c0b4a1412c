// The Cosmos probe's cost: the requests and the time it adds to the chain probe it follows (the peer run, in the
// same process, on the same simulated port-forwards), for one validator and for fleets of 500. Every abci_query
// answer is one a real simd chain gave (test/fixtures/cosmos/simd-answers.json: slashing params, a signing info,
// a staking record, an upgrade plan, one proposal in voting period and a vote not cast); /status from the recorded
// CometBFT chain (test/fixtures/chain-commits).
//
//   npx tsx bench/cosmos.ts [--latency-ms 20]     (one port-forward round trip; 0 measures CPU alone)
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { probeChains, type PodGet } from '../src/cluster/chain-probe.js'
import type { PodAnswer } from '../src/cluster/pod-http.js'
import { probeCosmos } from '../src/cluster/cosmos-probe.js'
import { QUERY } from '../src/snapshot/cosmos.js'
import type { ProbeRecord } from '../src/snapshot/types.js'
import type { Editable } from '../test/helpers/bundles.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const root = path.resolve(import.meta.dirname, '..')
const simd = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'cosmos', 'simd-answers.json'), 'utf8')) as any
const comet = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'chain-commits', 'four-validators.json'), 'utf8')) as any
const latencyArg = process.argv.indexOf('--latency-ms')
const LATENCY_MS = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 20

const answer = (result: unknown): PodAnswer => ({
  status: 200,
  contentType: 'application/json',
  body: Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: -1, result })),
  truncated: false,
})
/** Each query method answered as simd answered it (a chain with a plan and one open proposal the validator did not vote on). */
const BY_METHOD: [string, PodAnswer][] = [
  [QUERY.prefix, answer(simd.answers.prefix.result)],
  [QUERY.slashingParams, answer(simd.answers.slashingParams.result)],
  [QUERY.signingInfo, answer(simd.answers.signingInfoHealthy.result)],
  [QUERY.validators, answer(simd.answers.validatorsPage.result)],
  [QUERY.validator, answer(simd.answers.stakingValidatorHealthy.result)],
  [QUERY.currentPlan, answer(simd.answers.currentPlan.result)],
  [QUERY.proposals, answer(simd.answers.proposalsVoting.result)],
  [QUERY.vote, answer(simd.answers.voteNone.result)],
]
const blockchain = answer(simd.answers.blockchain.result)

function fleet(validators: number, chains: number) {
  const nodes: Editable[] = []
  const pods: Editable[] = []
  const status = new Map<string, PodAnswer>()
  const perChain = Math.ceil(validators / chains)
  for (let c = 0; c < chains; c++)
    for (let i = 0; i < Math.min(perChain, validators - c * perChain); i++) {
      const pod = `val-${c}-${i}`
      const key = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')
      nodes.push({
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNode',
        metadata: { name: pod, namespace: 'bench' },
        spec: { validator: {} },
        status: {
          chainID: `chain-${c}`,
          pubKey: JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key }),
          validatorAddress: simd.validators['val-0'].valoper,
        },
      })
      pods.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, namespace: 'bench' }, spec: { containers: [] }, status: { phase: 'Running' } })
      const s = structuredClone(comet.status['val-0'])
      s.node_info.network = `chain-${c}`
      s.sync_info.latest_block_height = '100'
      s.sync_info.latest_block_time = new Date().toISOString()
      status.set(pod, answer(s))
    }
  return { nodes, pods, status }
}

async function measure(label: string, validators: number, chains: number): Promise<void> {
  const { nodes, pods, status } = fleet(validators, chains)
  let requests = 0
  let forwards = 0
  const get: PodGet = async (_namespace, pod, _port, paths) => {
    forwards++
    requests += paths.length
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS))
    return paths.map((p) => {
      if (p === '/status') return status.get(pod)!
      if (p === '/net_info') return answer(comet.netInfo)
      if (p.startsWith('/blockchain')) return blockchain
      return BY_METHOD.find(([method]) => p.startsWith(`/abci_query?path=%22${method}%22`))?.[1] ?? new Error(`no answer for ${p}`)
    })
  }
  const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const records: ProbeRecord[] = await probeChains(nodes as any, pods as any, Promise.resolve([]), { get, windowMs: 0 }, [])
  const probeMs = performance.now() - t0
  const probeCpu = process.cpuUsage(cpu0)
  const probe = { requests, forwards }
  requests = 0
  forwards = 0
  const cpu1 = process.cpuUsage()
  const t1 = performance.now()
  await probeCosmos(records, nodes as any, { get })
  const cosmosMs = performance.now() - t1
  const cosmosCpu = process.cpuUsage(cpu1)
  const read = records.filter((r) => r.chain?.cosmos?.validator?.signingInfo && r.chain.cosmos.validator.votes).length
  console.log(
    `${label}: chain probe ${probe.requests} requests (${probe.forwards} port-forwards) ${probeMs.toFixed(0)} ms, ${cpuMs(probeCpu).toFixed(0)} ms CPU; ` +
      `cosmos +${requests} requests (+${forwards} port-forwards) +${cosmosMs.toFixed(0)} ms, ${cpuMs(cosmosCpu).toFixed(0)} ms CPU; ` +
      `time ratio ${(cosmosMs / probeMs).toFixed(1)}x; ${read}/${validators} validators read (signing info, staking, votes)`,
  )
}

console.log(`# ${LATENCY_MS} ms per port-forward round trip, abci_query answers recorded from simd (cosmos-sdk v0.50.3)`)
await measure('1 validator', 1, 1)
await measure('500 validators on 25 chains (20 each)', 500, 25)
await measure('500 validators on 500 chains', 500, 500)
await measure('500 validators on one chain', 500, 1)
