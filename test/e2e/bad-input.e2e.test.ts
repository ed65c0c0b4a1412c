import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { load, dump } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { startCluster, type ClusterHandle } from '../cluster/cluster.js'
import { useCluster } from '../cluster/kube.js'
import { setLogs } from '../cluster/logs.js'
import { selfSignedCert } from '../cluster/pki.js'
import { MAX_LINE_CHARS } from '../../src/cluster/logs.js'
import { runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'
import { seedNode } from './seed-node.js'

const NS = 't-bad-input'
const work = mkdtempSync(path.join(tmpdir(), 'bad-input-e2e-'))
const env = () => ({ KUBECONFIG: inject('kubeconfigPath'), KUBECTL_CHAINNODE_STATE_DIR: work })
const oneLine = (stderr: string) => {
  const lines = stderr.trim().split('\n')
  expect(lines, stderr).toHaveLength(1)
  expect(stderr).not.toMatch(/^\s+at /m)
  return lines[0]
}

describe('bad input against a real cluster', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
    await seedNode(NS, 'no-status')
    await seedNode(NS, 'orphan', { labels: { 'worker-name': 'ghost' } })
    await seedNode(NS, 'noisy', { status: { phase: 'Running', validator: false }, containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] })
    const binary = String.fromCharCode(...Array.from({ length: 200 }, (_, i) => (i * 37) % 256))
    await setLogs(NS, 'noisy', { app: { current: ['before', `binary ${binary} end`, `long ${'x'.repeat(100_000)}`, 'after'] } })
  })

  it('wrong namespace: one line, exit 2', async () => {
    const result = await runCli(['doctor', 'fullnode-0', '-n', 'nowhere'], { env: env() })
    expect(result.code).toBe(2)
    expect(oneLine(result.stderr)).toMatch(/chainnode "fullnode-0" not found in namespace "nowhere"/)
  })

  it('unknown node: one line, exit 2', async () => {
    const result = await runCli(['status', 'no-such-node', '-n', 'sc-healthy'], { env: env() })
    expect(result.code).toBe(2)
    expect(oneLine(result.stderr)).toMatch(/chainnode "no-such-node" not found/)
  })

  it('TLS failure (a CA that did not sign the server): one line, exit 3', async () => {
    const config = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as { clusters: { cluster: Record<string, string> }[] }
    const otherCa = readFileSync(selfSignedCert(work, 'some-other-ca').cert)
    config.clusters[0].cluster['certificate-authority-data'] = otherCa.toString('base64')
    const file = path.join(work, 'wrong-ca.yaml')
    writeFileSync(file, dump(config))
    const result = await runCli(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--kubeconfig', file])
    expect(result.code).toBe(3)
    expect(oneLine(result.stderr)).toMatch(/TLS failure talking to the API server/)
  })

  it('a ChainNode with no status is diagnosed, not a crash', async () => {
    const result = await runCli(['doctor', 'no-status', '-n', NS, '-o', 'json', '--fail-on', 'never'], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.clusters[0].ruleErrors).toEqual([])
    expect(report.clusters[0].nodes[0]).toMatchObject({ name: 'no-status', phase: null })
  })

  it('operator not installed for the node (no release with its worker name): a finding, not a failure', async () => {
    const result = await runCli(['doctor', 'orphan', '-n', NS, '-o', 'json'], { env: env() })
    expect(result.code).toBe(1)
    const finding = JSON.parse(result.stdout).clusters[0].findings.find((f: { ruleId: string }) => f.ruleId === 'operator-missing')
    expect(finding.summary).toBe('no operator release reconciles this node (worker ghost)')
  })

  it('logs with binary data and very long lines print safely', async () => {
    const result = await runCli(['logs', 'noisy', '-n', NS], { env: env() })
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]).toBe('before')
    expect(lines.at(-1)).toBe('after')
    // eslint-disable-next-line no-control-regex
    expect(result.stdout).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/)
    const long = lines.find((l) => l.startsWith('long '))!
    expect(long.length).toBeLessThan(MAX_LINE_CHARS + 100)
    expect(long).toMatch(/… \[\d+ more characters\]$/)
    const doctor = await runCli(['doctor', 'noisy', '-n', NS, '-o', 'json', '--fail-on', 'never'], { env: env() })
    expect(JSON.parse(doctor.stdout).clusters[0].ruleErrors).toEqual([])
  })
})

describe('a cluster without the cosmopilot CRDs', () => {
  let bare: ClusterHandle
  beforeAll(async () => {
    const empty = path.join(work, 'no-crds')
    mkdirSync(empty)
    bare = await startCluster({ dir: mkdtempSync(path.join(tmpdir(), 'chainnode-bare-')), binDir: inject('binDir'), crdsDir: empty })
  })
  afterAll(async () => {
    await bare?.stop()
  })

  it('says the CRD is not installed: one line, exit 2', async () => {
    const result = await runCli(['doctor', 'fullnode-0', '-n', 'default'], { env: { KUBECONFIG: bare.kubeconfigPath } })
    expect(result.code).toBe(2)
    expect(oneLine(result.stderr)).toMatch(/the ChainNode CRD \(chainnodes.cosmopilot.voluzi.com\/v1\) is not installed in this cluster/)
  })
})
