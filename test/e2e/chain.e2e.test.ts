/**
 * The chain probe against real CometBFT nodes (scenarios sc-healthy-chain, sc-chain-no-peers,
 * sc-chain-halt, sc-chain-rpc-dead), through the CLI: what doctor, status -o wide and bundles say.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { readBundle } from '../../src/snapshot/bundle.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios, waitForChainHalt } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
/* eslint-disable @typescript-eslint/no-explicit-any */
const doctor = async (args: string[]) => {
  const result = await runCli(['doctor', ...args, '-o', 'json', '--fail-on', 'never'], { env: env() })
  expect(result.stderr).toBe('')
  const cluster = JSON.parse(result.stdout).clusters[0]
  return { code: result.code, cluster, notSyncing: cluster.findings.find((f: any) => f.ruleId === 'not-syncing') }
}

describe('chain probe on real CometBFT nodes', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it('a node producing blocks: moving at once, no finding, exit 0', async () => {
    const { code, cluster } = await doctor(['node-0', '-n', 'sc-healthy-chain'])
    expect(code).toBe(0)
    expect(cluster.findings).toEqual([])
    expect(cluster.nodes[0].chain).toMatchObject({ target: 'pod/node-0:26657', ok: true })
    expect(cluster.nodes[0].chain.detail).toMatch(/^height \d+, moving \(last block \d+s old\), 0 peer\(s\) \(0 in, 0 out\)$/)
  })

  it('a recent last block is read once: no second reading, whatever the window', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'chain-once-')), 'b.tgz')
    const collected = await runCli(['collect', 'node-0', '-n', 'sc-healthy-chain', '--probe-window', '10m', '--out', out], { env: env() })
    expect(collected.code, collected.stderr).toBe(0)
    const [probe] = (await readBundle(out)).probes.filter((p) => p.kind === 'chain')
    expect(probe.chain?.status?.height).toBeGreaterThan(0)
    expect(probe.chain?.resample).toBeUndefined()
  })

  it('status -o wide shows live height, block age, peers and catching up; plain status asks nothing', async () => {
    const wide = await runCli(['status', 'node-0', '-n', 'sc-healthy-chain', '-o', 'wide'], { env: env() })
    expect(wide.code, wide.stderr).toBe(0)
    const [header, row] = wide.stdout.trim().split('\n')
    expect(header).toMatch(/LIVE HEIGHT\s+BLOCK AGE\s+PEERS\s+CATCHING UP\s+AGE$/)
    expect(row).toMatch(/\s\d+\s+\d+s\s+0 \(0 in, 0 out\)\s+false\s+\S+$/)
    const plain = await runCli(['status', 'node-0', '-n', 'sc-healthy-chain'], { env: env() })
    expect(plain.stdout).not.toMatch(/LIVE HEIGHT/)
  })

  it('a full node whose only seed does not answer: stalled at its start height with 0 peers', async () => {
    const { code, notSyncing, cluster } = await doctor(['lonely-0', '-n', 'sc-chain-no-peers'])
    expect(code).toBe(0)
    expect(notSyncing.summary).toBe('height not advancing: stalled at 0 (no block yet), 0 peer(s)')
    const texts = notSyncing.evidence.map((e: any) => `${e.source}: ${e.text}`)
    expect(texts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CometBFT RPC \/status: height 0, no block yet, catching_up true, network kvstore-lonely-1$/),
        // Its container has run for minutes (the Pod's status): no block yet decides without a second reading.
        expect.stringMatching(/^CometBFT RPC \/status: height 0 \S+ after its container started \(\S+Z\): stalled at 0 \(no block yet\)$/),
        'CometBFT RPC /net_info: 0 peer(s): 0 inbound, 0 outbound',
      ]),
    )
    expect(notSyncing.evidence.every((e: any) => e.kind !== 'probe' || typeof e.at === 'string')).toBe(true)
    expect(cluster.collectionErrors).toEqual([])
  })

  it('without the probe, the same node is found from its own JSON log lines alone', async () => {
    const { notSyncing } = await doctor(['lonely-0', '-n', 'sc-chain-no-peers', '--no-probe'])
    const logs = notSyncing.evidence.filter((e: any) => e.kind === 'log').map((e: any) => JSON.parse(e.text)._msg)
    // The node has run for seconds: its first seed dial has failed; Ensure peers comes every 30 s.
    expect(logs).toContain("Couldn't connect to any seeds")
  })

  it('a bundle keeps the measurement: doctor --bundle gives the same finding', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'chain-bundle-')), 'b.tgz')
    const collected = await runCli(['collect', 'lonely-0', '-n', 'sc-chain-no-peers', '--out', out], { env: env() })
    expect(collected.code, collected.stderr).toBe(0)
    const offline = await runCli(['doctor', '--bundle', out, '-o', 'json', '--fail-on', 'never'])
    const finding = JSON.parse(offline.stdout).clusters[0].findings.find((f: any) => f.ruleId === 'not-syncing')
    expect(finding.summary).toBe('height not advancing: stalled at 0 (no block yet), 0 peer(s)')
    expect(finding.evidence.some((e: any) => e.source === 'CometBFT RPC /net_info')).toBe(true)
  })

  it('a chain that halted with its peers connected: the full node keeps one peer and stalls', async () => {
    const lastBlockAt = await waitForChainHalt()
    const { notSyncing } = await doctor(['full-0', '-n', 'sc-chain-halt'])
    expect(notSyncing.summary).toMatch(new RegExp(`^height not advancing: stalled at \\d+ since ${lastBlockAt.replace(/[.]/g, '\\.')}, 1 peer\\(s\\)$`))
    expect(notSyncing.cause).toMatch(/chain itself may have halted/)
    expect(notSyncing.evidence.find((e: any) => e.source === 'CometBFT RPC /net_info').text).toMatch(
      /^1 peer\(s\): 0 inbound, 1 outbound \([0-9a-f]{12}@127\.0\.0\.1 out\)$/,
    )
  }, 120_000)

  it('a node whose RPC process died: the probe says so and doctor finishes', async () => {
    const { code, cluster } = await doctor(['gone-0', '-n', 'sc-chain-rpc-dead'])
    expect(code).toBe(0)
    expect(cluster.nodes[0].chain).toMatchObject({ ok: false, detail: expect.stringMatching(/^\/status on 26657: .*connection refused/) })
    expect(cluster.collectionErrors).toEqual([])
    const text = await runCli(['doctor', 'gone-0', '-n', 'sc-chain-rpc-dead'], { env: env() })
    expect(text.stdout).toMatch(/Measured on the nodes\n {2}sc-chain-rpc-dead\/gone-0 pod\/gone-0:26657: no answer: \/status on 26657: .*connection refused/)
  })
})
