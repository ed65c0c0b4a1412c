// The signing check's cost: the requests and the time it adds to the chain probe it follows (the peer
// run, in the same process, on the same simulated port-forwards), for one validator and for fleets of 500.
// Every answer is built from what a real CometBFT v0.38 chain recorded (test/fixtures/chain-commits):
// its /status, /net_info, /validators and /commit, the validator set widened to the size asked by
// repeating recorded signature entries under other addresses.
//
//   npx tsx bench/signing.ts [--latency-ms 20]     (one port-forward round trip; 0 measures CPU alone)
import { generateKeyPairSync } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { probeChains, type PodGet } from '../src/cluster/chain-probe.js'
import type { PodAnswer } from '../src/cluster/pod-http.js'
import { probeSigning } from '../src/cluster/signing-probe.js'
import { consensusAddressOf } from '../src/snapshot/signing.js'
import type { ProbeRecord } from '../src/snapshot/types.js'
import type { Editable } from '../test/helpers/bundles.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const root = path.resolve(import.meta.dirname, '..')
const recorded = JSON.parse(readFileSync(path.join(root, 'test', 'fixtures', 'chain-commits', 'four-validators.json'), 'utf8')) as any
const latencyArg = process.argv.indexOf('--latency-ms')
const LATENCY_MS = latencyArg > 0 ? Number(process.argv[latencyArg + 1]) : 20
const TOP = 5_000_000
const WINDOW = 100

interface Chain {
  name: string
  /** Consensus addresses of the set: ours first, then the rest of the set. */
  addresses: string[]
  status: Map<string, Buffer>
  netInfo: Buffer
  validators: Buffer[]
  commit: Buffer
}

const answer = (result: unknown): Buffer => Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: -1, result }))
const ok = (body: Buffer): PodAnswer => ({ status: 200, contentType: 'application/json', body, truncated: false })

/** A chain of `setSize` validators of which `ours` (pod name to pubKey) are in scope. */
function chain(name: string, ours: { pod: string; pubKey: string }[], setSize: number): Chain {
  const addresses = ours.map((o) => consensusAddressOf(o.pubKey)!)
  for (let i = addresses.length; i < setSize; i++) addresses.push(i.toString(16).toUpperCase().padStart(40, '0'))
  const template = recorded.commits[0]
  const signature = template.signed_header.commit.signatures.find((s: any) => s.block_id_flag === 2)
  const commit = structuredClone(template)
  commit.signed_header.header.chain_id = name
  // Every tenth of ours is absent: the counting walks misses as well as signatures.
  commit.signed_header.commit.signatures = addresses.map((address, i) =>
    i < ours.length && i % 10 === 9
      ? { block_id_flag: 1, validator_address: '', timestamp: '0001-01-01T00:00:00Z', signature: null }
      : { ...signature, validator_address: address },
  )
  const validator = recorded.validators.validators[0]
  const pages: Buffer[] = []
  for (let page = 0; page * 100 < setSize; page++)
    pages.push(
      answer({
        block_height: String(TOP - 1),
        validators: addresses.slice(page * 100, page * 100 + 100).map((address) => ({ ...validator, address })),
        count: '100',
        total: String(setSize),
      }),
    )
  const status = new Map(
    ours.map((o, i) => {
      const s = structuredClone(recorded.status['val-0'])
      s.node_info.network = name
      s.sync_info.latest_block_height = String(TOP)
      s.sync_info.latest_block_time = new Date().toISOString()
      s.validator_info.address = addresses[i]
      return [o.pod, answer(s)] as const
    }),
  )
  return { name, addresses, status, netInfo: answer(recorded.netInfo), validators: pages, commit: answer(commit) }
}

function fleet(validators: number, chains: number, setSize: number) {
  const nodes: Editable[] = []
  const pods: Editable[] = []
  const byPod = new Map<string, Chain>()
  const perChain = Math.ceil(validators / chains)
  for (let c = 0; c < chains; c++) {
    const ours = Array.from({ length: Math.min(perChain, validators - c * perChain) }, (_, i) => {
      const key = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64')
      return { pod: `val-${c}-${i}`, pubKey: JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key }) }
    })
    const built = chain(`chain-${c}`, ours, setSize)
    for (const o of ours) {
      byPod.set(o.pod, built)
      nodes.push({
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNode',
        metadata: { name: o.pod, namespace: 'bench' },
        spec: { validator: {} },
        status: { chainID: built.name, pubKey: o.pubKey },
      })
      pods.push({ apiVersion: 'v1', kind: 'Pod', metadata: { name: o.pod, namespace: 'bench' }, spec: { containers: [] }, status: { phase: 'Running' } })
    }
  }
  return { nodes, pods, byPod }
}

async function measure(label: string, validators: number, chains: number, setSize: number): Promise<void> {
  const { nodes, pods, byPod } = fleet(validators, chains, setSize)
  let requests = 0
  let forwards = 0
  const get: PodGet = async (_namespace, pod, _port, paths) => {
    forwards++
    requests += paths.length
    await new Promise((resolve) => setTimeout(resolve, LATENCY_MS))
    const c = byPod.get(pod)!
    return paths.map((p) => {
      if (p === '/status') return ok(c.status.get(pod)!)
      if (p === '/net_info') return ok(c.netInfo)
      if (p.startsWith('/validators')) return ok(c.validators[Number(/page=(\d+)/.exec(p)?.[1] ?? 1) - 1])
      if (p.startsWith('/commit')) return ok(c.commit)
      return new Error(`no answer for ${p}`)
    })
  }
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const records: ProbeRecord[] = await probeChains(nodes, pods, Promise.resolve([]), { get, windowMs: 0 }, [])
  const probeMs = performance.now() - t0
  const probeCpu = process.cpuUsage(cpu0)
  const probe = { requests, forwards }
  requests = 0
  forwards = 0
  const cpu1 = process.cpuUsage()
  const t1 = performance.now()
  await probeSigning(records, nodes, { get, window: WINDOW })
  const signingMs = performance.now() - t1
  const signingCpu = process.cpuUsage(cpu1)
  const counted = records.filter((r) => r.chain?.signing?.counted === WINDOW).length
  const cpuMs = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1000
  console.log(
    `${label}: chain probe ${probe.requests} requests (${probe.forwards} port-forwards) ${probeMs.toFixed(0)} ms, ${cpuMs(probeCpu).toFixed(0)} ms CPU; ` +
      `signing +${requests} requests (+${forwards} port-forwards) +${signingMs.toFixed(0)} ms, ${cpuMs(signingCpu).toFixed(0)} ms CPU; ` +
      `time ratio ${(signingMs / probeMs).toFixed(1)}x; ${counted}/${validators} validators counted over ${WINDOW} blocks`,
  )
}

console.log(`# window ${WINDOW} blocks, ${LATENCY_MS} ms per port-forward round trip, answers from the recorded chain`)
await measure('1 validator, set of 4', 1, 1, 4)
await measure('1 validator, set of 180', 1, 1, 180)
await measure('500 validators on 25 chains (20 each), sets of 180', 500, 25, 180)
await measure('500 validators on 500 chains, sets of 180', 500, 500, 180)
