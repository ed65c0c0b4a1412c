import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, beforeEach, describe, expect, inject, it } from 'vitest'
import { apply, clusterKube, create, deleteObject, useCluster } from '../cluster/kube.js'
import { SCENARIOS } from '../cluster/scenarios/index.js'
import { runCli } from '../helpers/cli.js'
import { schemaErrors } from '../helpers/schema.js'
import { refreshScenarios, waitForChainHalt } from './scenario-setup.js'

interface Entry {
  first: string
  last: string
  count: number
  source: string
  kind: string
  level: string
  subject: { kind: string; name: string }
  text: string
}
interface NodeTimeline {
  namespace: string
  name: string
  window: { since: string; until: string }
  entries: Entry[]
}

const env = (state?: string) => ({ KUBECONFIG: inject('kubeconfigPath'), ...(state ? { KUBECTL_CHAINNODE_STATE_DIR: state } : {}) })

async function timelineJson(args: string[], state?: string): Promise<NodeTimeline[]> {
  const result = await runCli(['timeline', ...args, '-o', 'json'], { env: env(state) })
  expect(result.stderr).toBe('')
  expect(result.code).toBe(0)
  const report = JSON.parse(result.stdout)
  expect(schemaErrors('timeline.schema.json', report)).toEqual([])
  return report.clusters[0].nodes
}

const has = (entries: Entry[], test: Partial<Pick<Entry, 'source' | 'kind' | 'level'>> & { text?: RegExp; subject?: string }) =>
  entries.some(
    (e) =>
      (!test.source || e.source === test.source) &&
      (!test.kind || e.kind === test.kind) &&
      (!test.level || e.level === test.level) &&
      (!test.text || test.text.test(e.text)) &&
      (!test.subject || e.subject.name === test.subject),
  )

type Check = Parameters<typeof has>[1]
/** Per scenario: doctor's finding on the timeline, and what else the scenario's story must show. */
const EXPECTED: Record<string, { findings?: string[]; probe?: boolean; shows: Check[] }> = {
  'sc-healthy': { findings: [], shows: [{ kind: 'pod-created' }, { kind: 'container-started', text: /container app started/ }] },
  'sc-healthy-legacy': { findings: [], shows: [{ kind: 'pod-created' }, { kind: 'container-started' }] },
  'sc-config-change-restart': {
    findings: ['config-change-restart'],
    shows: [
      { source: 'operator', text: /^config changed/ },
      { source: 'operator', text: /^recreating pod reason=config changed/ },
      { kind: 'config-pending', text: /restart deferred by the disruption check/ },
    ],
  },
  'sc-image-pull': {
    findings: ['image-pull'],
    shows: [
      { kind: 'Event/Failed', level: 'warning' },
      { kind: 'container-waiting', text: /ImagePullBackOff|ErrImagePull/ },
    ],
  },
  'sc-not-syncing': { findings: ['not-syncing'], shows: [{ source: 'log', kind: 'log/app', level: 'error' }, { kind: 'Event/Unhealthy' }] },
  'sc-snapshot-verify': {
    findings: ['snapshot-verify-failing'],
    shows: [{ kind: 'Event/IntegrityCheckStart' }, { kind: 'snapshot-integrity', text: /corrupted/ }, { kind: 'snapshot-created' }],
  },
  'sc-restore-not-starting': {
    findings: ['restore-not-starting'],
    shows: [{ kind: 'Event/ProvisioningFailed' }, { kind: 'pvc-created', text: /restored from/ }],
  },
  'sc-pvc-not-growing': { findings: ['pvc-not-growing'], shows: [{ kind: 'Event/PvcResized' }, { kind: 'pvc-resize' }] },
  'sc-profiling-unavailable': { findings: ['profiling-unavailable'], shows: [{ source: 'log', kind: 'log/node-utils' }] },
  'sc-signer-discovery-timeout': {
    findings: ['signer-discovery-timeout'],
    shows: [
      { kind: 'container-exited', level: 'error', text: /init container wait-cosmosigner-discovery failed/ },
      { source: 'event', subject: 'val-signer-0' },
    ],
  },
  'sc-signer-pubkey': { findings: ['signer-pubkey'], shows: [{ kind: 'container-exited', level: 'error' }, { kind: 'Event/NodeError' }] },
  'sc-legacy-signing': { findings: ['legacy-signing-refused'], shows: [{ kind: 'Event/LegacySigningPathRefused' }] },
  'sc-leader-election': { findings: ['leader-election'], shows: [{ source: 'lease' }] },
  'sc-webhook-certificates': { findings: ['webhook-certificates'], shows: [{ kind: 'created', source: 'chainnode' }] },
  // Real CometBFT nodes: what is wrong shows only to doctor's chain probe, which timeline runs too.
  'sc-healthy-chain': { probe: true, shows: [{ kind: 'container-started' }, { kind: 'Event/NodeRunning' }] },
  'sc-chain-no-peers': { probe: true, shows: [{ source: 'log', kind: 'log/app', text: /seed/i }] },
  'sc-chain-halt': { probe: true, shows: [{ source: 'log', kind: 'log/app', text: /peer/i }] },
  'sc-chain-rpc-dead': { probe: true, shows: [{ kind: 'pod-created' }] },
  'sc-validators': { probe: true, shows: [{ kind: 'pod-created' }] },
  'sc-reconcile-failing': {
    findings: ['phase-stuck', 'reconcile-failing'],
    shows: [
      { source: 'operator', text: /^Reconciler error error=failed to create init pod/ },
      { source: 'operator', text: /^updating \.status\.phase/ },
    ],
  },
  'sc-phase-stuck': { findings: ['phase-stuck'], shows: [{ kind: 'Event/DataInitStarted' }] },
  'sc-healthy-no-leader-election': { findings: [], shows: [{ source: 'operator', text: /^finishing reconcile/ }] },
  'sc-operator-vocabulary': {
    findings: ['data-volume-full', 'reconcile-failing', 'signing-key-blocked', 'state-sync-blocked', 'validator-jailed'],
    shows: [{ kind: 'Event/ValidatorJailed' }, { kind: 'Event/PvcMaxSizeReached' }],
  },
}

describe('timeline against every scenario of the test cluster', () => {
  // The halted chain is a finding only once its last block is no longer recent; run alone, this file comes early.
  beforeAll(async () => {
    await waitForChainHalt()
  }, 120_000)
  // Healthy leases and heights go stale within seconds; each read needs them fresh.
  beforeEach(async () => {
    await refreshScenarios()
  })

  it('has an expectation for every scenario', () => {
    expect(SCENARIOS.map((s) => s.namespace).sort()).toEqual(Object.keys(EXPECTED).sort())
  })

  it.each(Object.entries(EXPECTED))('%s', async (namespace, { findings, probe, shows }) => {
    // A wide window: the scenarios date their history hours and days back. The signer probes wait for
    // a gate; the scenarios that need no probe are read as recorded (signer.e2e tests the probes).
    const nodes = await timelineJson(['--all', '-n', namespace, '--since', '10000h', ...(probe ? [] : ['--no-probe'])])
    expect(nodes.length).toBeGreaterThan(0)
    const entries = nodes.flatMap((n) => n.entries)
    const found = [...new Set(entries.filter((e) => e.source === 'finding').map((e) => e.kind.replace(/^rule\//, '')))].sort()
    if (findings) expect(found).toEqual([...findings].sort())
    else {
      // The scenario's own symptom on its node; a healthy one has nothing at warning or above.
      const info = SCENARIOS.find((s) => s.namespace === namespace)!
      const mine = nodes.find((n) => n.name === info.node)!.entries.filter((e) => e.source === 'finding')
      if (info.symptomRule) expect(mine.map((e) => e.kind)).toContain(`rule/${info.symptomRule}`)
      else expect(mine.filter((e) => e.level === 'error' || e.level === 'warning')).toEqual([])
    }
    for (const check of shows)
      expect(has(entries, check), `${namespace} shows ${JSON.stringify(check, (_k, v) => (v instanceof RegExp ? String(v) : v))}`).toBe(true)
    for (const node of nodes) {
      const times = node.entries.map((e) => Date.parse(e.first))
      expect(times).toEqual([...times].sort((a, b) => a - b))
      for (const e of node.entries) expect(e.count).toBeGreaterThanOrEqual(1)
    }
  })

  it('prints text and markdown, and doctor ends the node with what led up to its worst finding', async () => {
    const text = await runCli(['timeline', 'pull-0', '-n', 'sc-image-pull', '--utc', '--no-probe'], { env: env() })
    expect(text.code).toBe(0)
    expect(text.stdout).toMatch(/^ChainNode sc-image-pull\/pull-0$/m)
    expect(text.stdout).toMatch(/TIME\s+LAST SEEN\s+SOURCE\s+OBJECT\s+MESSAGE/)
    expect(text.stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\s+\S+ \(x\d+ over \S+\)\s+event\s+pod\/pull-0\s+Failed: /m)
    const markdown = await runCli(['timeline', 'pull-0', '-n', 'sc-image-pull', '-o', 'markdown', '--no-probe'], { env: env() })
    expect(markdown.stdout).toMatch(/^### ChainNode sc-image-pull\/pull-0$/m)
    expect(markdown.stdout).toMatch(/\| finding \| Pod\/pull-0 \| 🔴 \*\*image-pull: /)
    const doctor = await runCli(['doctor', 'pull-0', '-n', 'sc-image-pull', '--no-probe'], { env: env() })
    expect(doctor.stdout).toMatch(/Leading up to it \(chainnode timeline pull-0 -n sc-image-pull\):\n\s+TIME\s+LAST SEEN/)
    expect(doctor.stdout).toMatch(/^\s+\S+Z\s+.*finding\s+pod\/pull-0\s+image-pull: .*\n\n/m)
  })

  it('covers every node of a set with --set, one timeline each', async () => {
    const nodes = await timelineJson(['--set', 'hub', '-n', 'sc-healthy', '--since', '10000h', '--no-probe'])
    expect(nodes.map((n) => n.name).sort()).toEqual(['hub-fullnodes-0', 'hub-fullnodes-1'])
    for (const node of nodes) expect(has(node.entries, { kind: 'pod-created', subject: node.name })).toBe(true)
  })

  it('says in one line what is wrong with a bad window or a missing node', async () => {
    const badSince = await runCli(['timeline', 'pull-0', '-n', 'sc-image-pull', '--since', 'yesterday'], { env: env() })
    expect(badSince.code).toBe(2)
    expect(badSince.stderr.trim().split('\n')).toHaveLength(1)
    expect(badSince.stderr).toMatch(/--since "yesterday" is not a duration/)
    const noNode = await runCli(['timeline'], { env: env() })
    expect(noNode.code).toBe(2)
    expect(noNode.stderr).toMatch(/no node given/)
  })
})

describe('timeline of a real sequence: a ConfigMap edit, then the Pod recreated', () => {
  const NS = 't-timeline'
  const NAME = 'tl-0'
  const state = mkdtempSync(path.join(tmpdir(), 'timeline-state-'))
  let nodeUid = ''
  const configMap = (hash: string, seeds: string) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: NAME, namespace: NS, annotations: { 'cosmopilot.voluzi.com/config-hash': hash } },
    data: { 'config.toml': `moniker = "${NAME}"\n[p2p]\nseeds = "${seeds}"\n` },
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
  const timeline = async () => (await timelineJson([NAME, '-n', NS, '--since', '1h', '--no-probe'], state))[0]

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
    await apply(configMap('111', ''))
    await apply(pod('111'))
  })

  it('shows the edit, the pending restart, the recreation it caused, and repeated Events collapsed', async () => {
    const start = await timeline()
    expect(has(start.entries, { kind: 'pod-created' })).toBe(true)
    expect(has(start.entries, { kind: 'config-pending' })).toBe(false)

    await apply(configMap('222', 's@10.0.0.2:26656'))
    const pending = await timeline()
    expect(has(pending.entries, { kind: 'configmap-hash', text: /^ConfigMap config-hash 111 -> 222 \(first seen/ })).toBe(true)
    expect(has(pending.entries, { kind: 'config-pending', text: /222 differs from the Pod's 111: restart pending/ })).toBe(true)

    const oldUid = (await clusterKube().get<{ metadata: { uid: string } }>(`/api/v1/namespaces/${NS}/pods/${NAME}`)).metadata.uid
    await deleteObject(pod('222'), { wait: true })
    const recreated = await apply(pod('222'))
    // A repeated warning, written through events.k8s.io/v1 (a series), read back through core/v1.
    await create({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `${NAME}.backoff`, namespace: NS },
      regarding: { apiVersion: 'v1', kind: 'Pod', name: NAME, namespace: NS, uid: (recreated.metadata as { uid?: string }).uid },
      eventTime: new Date(Date.now() - 120_000).toISOString().replace('Z', '000Z'),
      series: { count: 4, lastObservedTime: new Date().toISOString().replace('Z', '000Z') },
      reportingController: 'kubelet',
      reportingInstance: 'kwok',
      action: 'Backoff',
      type: 'Warning',
      reason: 'BackOff',
      note: 'Back-off restarting failed container app',
    })
    const after = await timeline()
    const recreation = after.entries.find((e) => e.kind === 'pod-recreated')
    expect(recreation?.text).toBe(`Pod recreated (was uid ${oldUid}), config-hash 111 -> 222: restart because the configuration changed`)
    expect(has(after.entries, { kind: 'config-pending' })).toBe(false)
    const edit = after.entries.findIndex((e) => e.kind === 'configmap-hash')
    expect(edit).toBeGreaterThanOrEqual(0)
    expect(edit).toBeLessThan(after.entries.indexOf(recreation!))
    expect(after.entries.find((e) => e.kind === 'Event/BackOff')).toMatchObject({ count: 4, level: 'warning', subject: { kind: 'Pod', name: NAME } })
    const text = await runCli(['timeline', NAME, '-n', NS, '--since', '1h', '--utc', '--no-probe'], { env: env(state) })
    expect(text.stdout).toMatch(/\(x4 over 2m(\d+s)?\)\s+event\s+pod\/tl-0\s+BackOff: Back-off restarting failed container app/)
  })
})
