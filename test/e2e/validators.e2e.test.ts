/**
 * Validator truth on real CometBFT chains (scenarios sc-validators and sc-chain-rpc-dead), through the
 * CLI: signing counted on the chain's commits, the double-sign risk, a dead RPC, live and from a bundle.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { readBundle } from '../../src/snapshot/bundle.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

const env = () => ({ KUBECONFIG: inject('kubeconfigPath') })
/* eslint-disable @typescript-eslint/no-explicit-any */
const doctorJson = async (args: string[]) => {
  const result = await runCli(['doctor', ...args, '-o', 'json', '--fail-on', 'never'], { env: env() })
  expect(result.stderr).toBe('')
  return JSON.parse(result.stdout).clusters[0]
}
const NS = 'sc-validators'

describe('validators of a real 4-validator chain', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it('the healthy validator: signs every block counted, no finding', async () => {
    const cluster = await doctorJson(['val-0', '-n', NS])
    expect(cluster.findings).toEqual([])
    const signing = cluster.nodes[0].chain.signing
    expect(signing.counted).toBeGreaterThanOrEqual(2)
    expect(signing).toMatchObject({ source: 'pod/val-0:26657', window: 100, missed: 0, votingPower: 10, inActiveSet: true })
    expect(signing.signed).toBe(signing.counted)
  })

  it('the validator whose process runs another key: misses every block, and the key it runs with is named', async () => {
    const cluster = await doctorJson(['val-3', '-n', NS])
    const finding = cluster.findings.find((f: any) => f.ruleId === 'validator-missed-blocks')
    expect(finding.severity).toBe('error')
    expect(finding.summary).toMatch(/^missed (\d+) of the last \1 blocks \(heights \d+-\d+; first missed \d+ at \S+\); node synced$/)
    expect(finding.cause).toMatch(/^the process signs with [0-9A-F]{40} \(its \/status validator_info\), not with the ChainNode's key [0-9A-F]{40}/)
    expect(cluster.nodes[0].chain.signing).toMatchObject({ signed: 0, votingPower: 10, inActiveSet: true })
  })

  it('a bundle keeps the readings: doctor --bundle gives the same finding', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'validators-bundle-')), 'b.tgz')
    const collected = await runCli(['collect', 'val-3', '-n', NS, '--out', out], { env: env() })
    expect(collected.code, collected.stderr).toBe(0)
    const [probe] = (await readBundle(out)).probes.filter((p) => p.kind === 'chain')
    expect(probe.chain?.signing?.missed).toBeGreaterThan(0)
    const offline = await runCli(['doctor', '--bundle', out, '-o', 'json', '--fail-on', 'never'])
    const finding = JSON.parse(offline.stdout).clusters[0].findings.find((f: any) => f.ruleId === 'validator-missed-blocks')
    expect(finding.summary).toMatch(new RegExp(`^missed ${probe.chain!.signing!.missed} of the last`))
  })

  it('two running nodes presenting one validator key: double-sign-risk on both, the first finding of the report', async () => {
    const cluster = await doctorJson(['-n', NS, '--all'])
    const risks = cluster.findings.filter((f: any) => f.ruleId === 'double-sign-risk')
    expect(risks.map((f: any) => f.node.name).sort()).toEqual(['val-1', 'val-1-standby'])
    expect(cluster.findings[0].ruleId).toBe('double-sign-risk')
    expect(risks[0].action).toMatch(/^Stop the node that should not sign first/)
    // The chain is read once for the four validators of the namespace, not once per validator.
    const requests = new Set(cluster.nodes.filter((n: any) => n.chain?.signing?.counted).map((n: any) => n.chain.signing.source))
    expect(requests.size).toBe(1)
  })

  it('status -o wide shows signed/missed, power and jailed for validators', async () => {
    const wide = await runCli(['status', '-n', NS, '-o', 'wide'], { env: env() })
    expect(wide.code, wide.stderr).toBe(0)
    const [header, ...rows] = wide.stdout.trim().split('\n')
    expect(header).toMatch(/SIGNED\s+MISSED\s+POWER\s+JAILED\s+AGE$/)
    expect(rows.find((r) => r.startsWith('val-0 '))).toMatch(/\s(\d+)\/\1\s+0\s+10\s+false\s+\S+$/)
    expect(rows.find((r) => r.startsWith('val-3 '))).toMatch(/\s0\/(\d+)\s+\1\s+10\s+false\s+\S+$/)
  })
})

describe('a node whose RPC refuses connections', () => {
  beforeAll(async () => {
    await refreshScenarios()
  })

  it('is a finding with the reason in one line; Measured on the nodes and status -o wide say it short', async () => {
    const cluster = await doctorJson(['gone-0', '-n', 'sc-chain-rpc-dead'])
    const finding = cluster.findings.find((f: any) => f.ruleId === 'rpc-unreachable')
    expect(finding).toMatchObject({
      ruleId: 'rpc-unreachable',
      severity: 'warning',
      summary: 'RPC pod/gone-0:26657 does not answer: /status on 26657: connection refused',
    })
    expect(cluster.nodes[0].chain.reason).toBe('refused')
    const text = await runCli(['doctor', 'gone-0', '-n', 'sc-chain-rpc-dead', '--fail-on', 'never'], { env: env() })
    const measured = text.stdout.split('\n').filter((l) => l.startsWith('  sc-chain-rpc-dead/gone-0 pod/gone-0:26657:'))
    expect(measured).toEqual(['  sc-chain-rpc-dead/gone-0 pod/gone-0:26657: no answer: /status on 26657: connection refused'])
    const wide = await runCli(['status', 'gone-0', '-n', 'sc-chain-rpc-dead', '-o', 'wide'], { env: env() })
    expect(wide.stdout.split('\n')[1]).toMatch(/<error: refused>/)
  })
})
