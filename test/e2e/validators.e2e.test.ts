/**
 * Validator truth on real CometBFT chains (scenarios sc-validators and sc-chain-rpc-dead), through the
 * CLI: signing counted on the chain's commits, the double-sign risk (from either holder, and under namespace-only
 * RBAC), a dead RPC, live and from a bundle.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { readBundle } from '../../src/snapshot/bundle.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'
import { apply, clusterKube, useCluster } from '../cluster/kube.js'

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

  it('the chain is read once for the four validators of the namespace, not once per validator', async () => {
    const cluster = await doctorJson(['-n', NS, '--all'])
    const requests = new Set(cluster.nodes.filter((n: any) => n.chain?.signing?.counted).map((n: any) => n.chain.signing.source))
    expect(requests.size).toBe(1)
  })

  it('status -o wide shows signed/missed, power and jailed for validators', async () => {
    const wide = await runCli(['status', '-n', NS, '-o', 'wide'], { env: env() })
    expect(wide.code, wide.stderr).toBe(0)
    const [header, ...rows] = wide.stdout.trim().split('\n')
    // One JAILED column: the CRD prints .status.jailed already, so ours is left out.
    expect(header).toMatch(/SIGNED\s+MISSED\s+POWER\s+AGE$/)
    expect(header.match(/JAILED/g)).toHaveLength(1)
    expect(rows.find((r) => r.startsWith('val-0 '))).toMatch(/\s(\d+)\/\1\s+0\s+10\s+\S+$/)
    expect(rows.find((r) => r.startsWith('val-3 '))).toMatch(/\s0\/(\d+)\s+\1\s+10\s+\S+$/)
  })
})

/** val-1 signs at the tip; val-1-standby runs with val-1's key, unpeered at height 0: it stops, whatever the scope. */
const STANDBY_STOPS = new RegExp(
  `^Stop ${NS}/val-1-standby; ${NS}/val-1 keeps signing \\(${NS}/val-1 holds the key as its ChainNode's .status.pubKey and is at height [1-9]\\d* ` +
    `\\(the key last signed height [1-9]\\d*\\); ${NS}/val-1-standby lags \\(height 0\\), so cannot have cast those signatures\\)\\. kubectl -n ${NS} delete pod val-1-standby: `,
)
const risksOf = (cluster: any) => cluster.findings.filter((f: any) => f.ruleId === 'double-sign-risk')
const holders = (f: any) => [f.node, ...(f.alsoFor ?? [])].map((n: any) => `${n.namespace}/${n.name}`).sort()
/** What the finding tells a reader, heights masked (the chain moves between two runs). */
const told = (f: any) => ({ ruleId: f.ruleId, subject: f.subject, nodes: holders(f), action: f.action.replace(/\d+/g, 'N'), cause: f.cause })

describe("the double-sign risk: val-1-standby presents val-1's key", () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
  })

  it('doctor val-1 alone finds the standby in its namespace: one finding, first in the report, naming both, the standby to stop', async () => {
    const cluster = await doctorJson(['val-1', '-n', NS])
    expect(cluster.nodes.map((n: any) => n.name)).toEqual(['val-1'])
    const risks = risksOf(cluster)
    expect(risks).toHaveLength(1)
    expect(cluster.findings[0].ruleId).toBe('double-sign-risk')
    expect(holders(risks[0])).toEqual([`${NS}/val-1`, `${NS}/val-1-standby`])
    expect(risks[0].subject).toEqual({ kind: 'ChainNode', namespace: NS, name: 'val-1-standby' })
    expect(risks[0].action).toMatch(STANDBY_STOPS)
    expect(risks[0].summary).toMatch(
      new RegExp(`^2 running nodes present validator key [0-9A-F]{40} on kvstore-validators-1: ${NS}/val-1, ${NS}/val-1-standby$`),
    )
  })

  it('the same answer from the standby alone, from the namespace and from a bundle of val-1: never two actions', async () => {
    const [fromVal1, fromStandby, fromNamespace] = await Promise.all([
      doctorJson(['val-1', '-n', NS]),
      doctorJson(['val-1-standby', '-n', NS]),
      doctorJson(['--all', '-n', NS]),
    ])
    const expected = told(risksOf(fromVal1)[0])
    for (const cluster of [fromStandby, fromNamespace]) {
      expect(risksOf(cluster).map(told)).toEqual([expected])
      expect(risksOf(cluster)[0].action).toMatch(STANDBY_STOPS)
    }
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'double-sign-bundle-')), 'b.tgz')
    const collected = await runCli(['collect', 'val-1', '-n', NS, '--out', out], { env: env() })
    expect(collected.code, collected.stderr).toBe(0)
    const bundle = await readBundle(out)
    // The standby is context in the bundle, not a node of it.
    expect(bundle.objects.filter((o) => o.kind === 'ChainNode').map((o) => o.metadata.name)).toEqual(['val-1'])
    expect(bundle.keySearch?.nodes.map((n) => n.metadata.name)).toEqual(['val-1-standby'])
    const offline = await runCli(['doctor', '--bundle', out, '-o', 'json', '--fail-on', 'never'])
    expect(risksOf(JSON.parse(offline.stdout).clusters[0]).map(told)).toEqual([expected])
  })

  it('allowed to list ChainNodes in the namespace only: the 403 on the cluster-wide list falls back to the namespace, and the finding says so', async () => {
    const rules = [
      { apiGroups: ['cosmopilot.voluzi.com'], resources: ['chainnodes', 'chainnodesets'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods', 'pods/log', 'events', 'configmaps', 'persistentvolumeclaims', 'services', 'endpoints'], verbs: ['get', 'list'] },
      { apiGroups: [''], resources: ['pods/portforward'], verbs: ['get', 'create'] },
    ]
    const meta = { name: 'chainnode-test-double-sign', namespace: NS }
    await apply({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta, rules })
    await apply({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: meta,
      subjects: [{ kind: 'User', name: 'viewer', apiGroup: 'rbac.authorization.k8s.io' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: meta.name },
    })
    try {
      const asViewer = () => runCli(['doctor', 'val-1', '-n', NS, '--context', 'viewer', '-o', 'json', '--fail-on', 'never'], { env: env() })
      let risks: any[] = []
      let cluster: any
      // RBAC reaches the authorizer through an informer: retry until the grant shows.
      for (let i = 0; i < 20 && risks.length === 0; i++) {
        const result = await asViewer()
        cluster = result.stdout ? JSON.parse(result.stdout).clusters[0] : undefined
        risks = cluster ? risksOf(cluster) : []
        if (risks.length === 0) await new Promise((resolve) => setTimeout(resolve, 300))
      }
      expect(cluster.nodes[0].chain.keySearch).toBe('looked for in sc-validators only (not allowed to list ChainNodes cluster-wide (403))')
      expect(risks).toHaveLength(1)
      expect(risks[0].action).toMatch(STANDBY_STOPS)
      expect(risks[0].cause).toMatch(/Other holders were looked for in sc-validators only \(not allowed to list ChainNodes cluster-wide \(403\)\)$/)
    } finally {
      await clusterKube().delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: meta })
      await clusterKube().delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: meta })
    }
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
