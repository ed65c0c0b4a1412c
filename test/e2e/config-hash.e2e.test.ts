import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, clusterKube, deleteObject, useCluster } from '../cluster/kube.js'
import { CLI, runCli } from '../helpers/cli.js'

const NS = 't-confighash'
const NAME = 'hash-0'
const HASH = 'annotations' as const
const state = mkdtempSync(path.join(tmpdir(), 'confighash-state-'))
const env = () => ({ KUBECONFIG: inject('kubeconfigPath'), KUBECTL_CHAINNODE_STATE_DIR: state })

const CONFIG_V1 = `# rendered by the operator
moniker = "hash-0"
[p2p]
seeds = ""
persistent_peers = "a@10.0.0.1:26656"
[rpc]
laddr = "tcp://0.0.0.0:26657"
cors_allowed_origins = ["*"]
[[statesync.servers]]
url = "http://one:26657"
`
const CONFIG_V2 = CONFIG_V1.replace('seeds = ""', 'seeds = "s@10.0.0.2:26656" # added').replace('["*"]', '["*", "https://x"]') + '\n[mempool]\nsize = 5000\n'

let nodeUid = ''
const configMap = (hash: string, config: string) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: NAME, namespace: NS, [HASH]: { 'cosmopilot.voluzi.com/config-hash': hash } },
  data: { 'config.toml': config, 'app.toml': 'pruning = "default"\n[api]\nenable = true\n' },
})
const pod = (hash: string) => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: NAME,
    namespace: NS,
    annotations: { 'cosmopilot.voluzi.com/config-hash': hash, 'cosmopilot.voluzi.com/chainnode-generation': '1' },
    ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name: NAME, uid: nodeUid, controller: true }],
  },
  spec: { nodeName: inject('kwokNode'), containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' }] },
})
/** The operator applies a new configuration by deleting the Pod and creating it again (new uid). */
async function recreatePod(hash: string) {
  await deleteObject(pod(hash), { wait: true })
  await apply(pod(hash))
}
const verdict = async () => JSON.parse((await runCli(['config-hash', NAME, '-n', NS, '-o', 'json'], { env: env() })).stdout)

describe('config-hash on the real cluster', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })
    const node = await apply({
      apiVersion: 'cosmopilot.voluzi.com/v1',
      kind: 'ChainNode',
      metadata: { name: NAME, namespace: NS },
      spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }, genesis: { url: 'https://example.invalid/g.json' } },
    })
    nodeUid = (node.metadata as { uid?: string }).uid!
    await apply(configMap('111', CONFIG_V1))
    await apply(pod('111'))
  })

  it('walks through in sync, pending, restarted by a config change, and restarted with the same hash', async () => {
    expect((await verdict()).verdict).toBe('in-sync')

    await apply(configMap('222', CONFIG_V2))
    const pending = await verdict()
    expect(pending).toMatchObject({ verdict: 'pending', podHash: '111', configMapHash: '222' })

    await recreatePod('222')
    const restarted = await verdict()
    expect(restarted).toMatchObject({ verdict: 'restarted-config', detectedBy: 'history', podHash: '222', before: { podHash: '111' } })

    await clusterKube().createEvent(
      { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', metadata: { name: NAME, namespace: NS, uid: nodeUid } },
      { reason: 'NodeRestarted', message: 'Node restarted', component: 'chainnode-controller' },
    )
    await recreatePod('222')
    const unexpected = await runCli(['config-hash', NAME, '-n', NS], { env: env() })
    expect(unexpected.stdout).toMatch(/Verdict:\s+restarted with the same config-hash \(unexpected\)/)
    expect(unexpected.stdout).toMatch(/Event Normal NodeRestarted on ChainNode\/hash-0/)
    expect(unexpected.stdout).toMatch(/History \(first seen\):/)

    const doctor = JSON.parse((await runCli(['doctor', NAME, '-n', NS, '-o', 'json', '--fail-on', 'never'], { env: env() })).stdout)
    const finding = doctor.clusters[0].findings.find((f: { ruleId: string }) => f.ruleId === 'config-change-restart')
    expect(finding).toMatchObject({ severity: 'warning', data: { verdict: 'restarted-unexpected' } })
  })

  it('reads the recorded scenario: a restart by a config change, and a restart deferred by the disruption check', async () => {
    const fresh = { KUBECONFIG: inject('kubeconfigPath'), KUBECTL_CHAINNODE_STATE_DIR: mkdtempSync(path.join(tmpdir(), 'confighash-scenario-')) }
    const cfg0 = JSON.parse((await runCli(['config-hash', 'cfg-0', '-n', 'sc-config-change-restart', '-o', 'json'], { env: fresh })).stdout)
    expect(cfg0).toMatchObject({ verdict: 'restarted-config', detectedBy: 'events' })
    expect(cfg0.evidence.some((e: { text: string }) => /config changed/.test(e.text))).toBe(true)
    const cfg1 = JSON.parse((await runCli(['config-hash', 'cfg-1', '-n', 'sc-config-change-restart', '-o', 'json'], { env: fresh })).stdout)
    expect(cfg1.verdict).toBe('deferred')
    expect(cfg1.podHash).not.toBe(cfg1.configMapHash)
  })

  it('diffs the rendered configuration between bundles key by key and says whether a restart followed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'confighash-diff-'))
    await apply(configMap('333', CONFIG_V1))
    await recreatePod('333')
    expect((await runCli(['collect', NAME, '-n', NS, '--out', path.join(dir, 'a.tgz')], { env: env() })).code).toBe(0)
    await apply(configMap('444', CONFIG_V2))
    const liveDiff = await runCli(['config-hash', 'diff', path.join(dir, 'a.tgz'), 'live', '--node', NAME, '-n', NS], { env: env() })
    expect(liveDiff.stdout).toMatch(/No restart/)
    await recreatePod('444')
    expect((await runCli(['collect', NAME, '-n', NS, '--out', path.join(dir, 'b.tgz')], { env: env() })).code).toBe(0)
    const result = await runCli(['config-hash', 'diff', path.join(dir, 'a.tgz'), path.join(dir, 'b.tgz'), '-o', 'json'])
    const diff = JSON.parse(result.stdout)
    expect(diff.configHash).toEqual({ before: '333', after: '444' })
    expect(diff.restartFollowed).toBe(true)
    const paths = diff.changes.map((c: { file: string; path: string; kind: string }) => `${c.kind} ${c.file}:${c.path}`)
    expect(paths).toEqual(['added config.toml:mempool', 'changed config.toml:p2p.seeds', 'changed config.toml:rpc.cors_allowed_origins'])
  })

  it('--watch prints hash changes and restarts as they happen, with the diff', async () => {
    const child = spawn(CLI, ['config-hash', NAME, '-n', NS, '--watch'], { env: { ...process.env, ...env(), NO_COLOR: '1' } })
    let out = ''
    child.stdout.on('data', (d) => (out += d))
    const waitFor = async (pattern: RegExp) => {
      for (let i = 0; i < 100 && !pattern.test(out); i++) await new Promise((r) => setTimeout(r, 100))
      expect(out).toMatch(pattern)
    }
    await waitFor(/watching Pod and ConfigMap/)
    await apply(configMap('555', CONFIG_V1))
    await waitFor(/ConfigMap hash-0: config-hash 444 -> 555/)
    await waitFor(/~ config.toml: p2p.seeds: "s@10.0.0.2:26656" -> ""/)
    await recreatePod('555')
    await waitFor(/Pod hash-0 recreated .*config-hash 444 -> 555: restart because the configuration changed/)
    child.kill('SIGINT')
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(130)
  })
})
