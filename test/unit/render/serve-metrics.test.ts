import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { diagnose, selectRules } from '../../../src/app/doctor.js'
import { renderExposition } from '../../../src/render/prometheus.js'
import { readingsOf, type ServeStatus } from '../../../src/analysis/serve-readings.js'
import { serveMetrics } from '../../../src/render/serve-metrics.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { findObject, loadBundle, objectsOf } from '../../helpers/bundles.js'

async function readingsFrom(bundle: string, edit: (snapshot: Snapshot) => void = () => {}, probed = true) {
  const snapshot = await loadBundle(bundle)
  edit(snapshot)
  const result = diagnose([snapshot], selectRules({}))
  return { result, ...readingsOf(snapshot, result.clusters[0], probed) }
}

const status = (over: Partial<ServeStatus>): ServeStatus => ({
  version: '0.1.0',
  nodeVersion: 'v20.20.2',
  nodes: [],
  findings: [],
  cycles: 1,
  failedCycles: 0,
  lastRunSuccess: true,
  sources: [{ source: 'apiserver', up: true, errors: 0 }],
  blindInARow: 0,
  apiRequestsTotal: 10,
  watchedLists: 4,
  ...over,
})

const seriesOf = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))

describe('serve metrics', () => {
  it('writes one chainnode_finding series per node and finding of the report', async () => {
    const { result, findings } = await readingsFrom('not-syncing')
    const ids = result.clusters[0].report.findings.map((f) => f.ruleId)
    expect(ids).toContain('not-syncing')
    const text = renderExposition(serveMetrics(status({ findings })))
    expect(seriesOf(text, 'chainnode_finding')).toContain(
      `chainnode_finding{namespace="sc-not-syncing",chainnode="stuck-0",rule="not-syncing",severity="error"} 1`,
    )
    expect(seriesOf(text, 'chainnode_finding')).toHaveLength(new Set(findings.map((f) => `${f.chainnode}|${f.rule}|${f.severity}`)).size)
  })

  it('writes no finding series for a healthy fleet, and one node reading per ChainNode', async () => {
    const { findings, nodes } = await readingsFrom('healthy')
    expect(findings).toEqual([])
    const text = renderExposition(serveMetrics(status({ nodes })))
    expect(seriesOf(text, 'chainnode_finding')).toEqual([])
    expect(seriesOf(text, 'chainnode_nodes')).toEqual(['chainnode_nodes 3'])
    // The bundles hold no chain probe: every node says the probe did not answer, and no height is invented.
    expect(seriesOf(text, 'chainnode_probe_success')).toHaveLength(3)
    expect(seriesOf(text, 'chainnode_probe_success').every((line) => line.endsWith(' 0'))).toBe(true)
    expect(seriesOf(text, 'chainnode_height')).toEqual([])
  })

  it('reads height, block age, peers and catching up from the chain probe, and nothing about the probe with --no-probe', async () => {
    const at = '2026-11-20T10:00:10.000Z'
    const addProbe = (snapshot: Snapshot) => {
      const pod = findObject(snapshot, 'Pod', 'fullnode-0')
      snapshot.probes.push({
        kind: 'chain',
        namespace: pod.metadata.namespace!,
        pod: pod.metadata.name,
        target: 'rpc :26657',
        ok: true,
        detail: 'moving',
        at,
        chain: {
          status: { at, height: 1234, blockTime: '2026-11-20T10:00:08.500Z', catchingUp: false, earliestHeight: 1, network: 'test-1', nodeId: 'abc' },
          peers: { at, total: 7, inbound: 3, outbound: 4, list: [] },
          problems: [],
        },
      })
    }
    const { nodes } = await readingsFrom('healthy', addProbe)
    const node = nodes.find((n) => n.chainnode === 'fullnode-0')
    expect(node).toMatchObject({ probeSuccess: true, height: 1234, blockAgeSeconds: 1.5, peers: 7, catchingUp: false })
    const text = renderExposition(serveMetrics(status({ nodes })))
    expect(seriesOf(text, 'chainnode_height')).toEqual([`chainnode_height{namespace="${node!.namespace}",chainnode="fullnode-0"} 1234`])
    expect(seriesOf(text, 'chainnode_catching_up')).toEqual([`chainnode_catching_up{namespace="${node!.namespace}",chainnode="fullnode-0"} 0`])
    const unprobed = await readingsFrom('healthy', addProbe, false)
    expect(unprobed.nodes.every((n) => n.probeSuccess === undefined)).toBe(true)
  })

  it('writes chainnode_validator_jailed from .status.jailed, only for nodes that have it', async () => {
    const { nodes } = await readingsFrom('signer-pubkey', (snapshot) => {
      const node = objectsOf(snapshot, 'ChainNode')[0]
      node.status = { ...node.status, jailed: true }
    })
    expect(seriesOf(renderExposition(serveMetrics(status({ nodes }))), 'chainnode_validator_jailed')).toEqual([
      `chainnode_validator_jailed{namespace="${nodes[0].namespace}",chainnode="val-1"} 1`,
    ])
    const healthy = await readingsFrom('healthy')
    expect(seriesOf(renderExposition(serveMetrics(status({ nodes: healthy.nodes }))), 'chainnode_validator_jailed')).toEqual([])
  })

  it('writes chainnode_validator_missed_blocks from the signing reading of the chain probe, only where commits were counted', async () => {
    const at = '2026-11-20T10:00:10.000Z'
    const signing = (counted: number, missed: number) => ({
      at,
      address: 'A1B2',
      addressFrom: 'pubKey' as const,
      source: 'own RPC',
      window: 100,
      counted,
      signed: counted - missed,
      missed,
      missedHeights: [],
      requests: counted + 1,
      problems: [],
    })
    const { nodes } = await readingsFrom('healthy', (snapshot) => {
      for (const [name, reading] of [
        ['fullnode-0', signing(99, 7)],
        ['hub-fullnodes-0', signing(0, 0)],
      ] as const) {
        const pod = snapshot.objects.find((o) => o.kind === 'Pod' && o.metadata.name === name)!
        snapshot.probes.push({
          kind: 'chain',
          namespace: pod.metadata.namespace!,
          pod: name,
          target: 'rpc :26657',
          ok: true,
          detail: 'moving',
          at,
          chain: { signing: reading, problems: [] },
        })
      }
    })
    const text = renderExposition(serveMetrics(status({ nodes })))
    const namespace = nodes.find((n) => n.chainnode === 'fullnode-0')!.namespace
    expect(seriesOf(text, 'chainnode_validator_missed_blocks')).toEqual([
      `chainnode_validator_missed_blocks{namespace="${namespace}",chainnode="fullnode-0"} 7`,
    ])
    expect(seriesOf(text, 'chainnode_validator_signing_window_blocks')).toEqual([
      `chainnode_validator_signing_window_blocks{namespace="${namespace}",chainnode="fullnode-0"} 99`,
    ])
  })

  it('writes the Cosmos SDK readings (slashing window, tombstoned, upgrade plan and its ETA, unvoted proposals), none for a chain that is not one', async () => {
    const at = '2026-11-20T10:00:10.000Z'
    const { nodes } = await readingsFrom('healthy', (snapshot) => {
      for (const [name, prefix] of [
        ['fullnode-0', 'cosmos'],
        ['hub-fullnodes-0', undefined],
      ] as const) {
        const pod = snapshot.objects.find((o) => o.kind === 'Pod' && o.metadata.name === name)!
        snapshot.probes.push({
          kind: 'chain',
          namespace: pod.metadata.namespace!,
          pod: name,
          target: 'rpc :26657',
          ok: true,
          detail: 'moving',
          at,
          chain: {
            problems: [],
            cosmos: {
              at,
              source: 'pod/fullnode-0:26657',
              height: 1000,
              blockTimeMs: 2000,
              prefix,
              slashing: prefix ? { signedBlocksWindow: 50, minSignedPerWindow: 0.5, downtimeJailSeconds: 60 } : undefined,
              upgradePlan: prefix ? { name: 'v2', height: 1100, info: '' } : undefined,
              proposals: prefix
                ? [
                    { id: '1', title: 't', expedited: false },
                    { id: '2', title: 'u', expedited: false },
                  ]
                : undefined,
              validator: prefix
                ? {
                    consensusAddress: 'AB',
                    signingInfo: { address: 'cosmosvalcons1x', startHeight: 0, indexOffset: 9, missedBlocksCounter: 7, tombstoned: false },
                    votes: { '1': ['yes'], '2': null },
                  }
                : undefined,
              unknown: prefix ? {} : { chain: 'not a Cosmos SDK chain' },
              requests: 8,
            },
          },
        })
      }
    })
    const text = renderExposition(serveMetrics(status({ nodes })))
    const labels = `namespace="${nodes.find((n) => n.chainnode === 'fullnode-0')!.namespace}",chainnode="fullnode-0"`
    expect(seriesOf(text, 'chainnode_validator_window_missed_blocks')).toEqual([`chainnode_validator_window_missed_blocks{${labels}} 7`])
    expect(seriesOf(text, 'chainnode_validator_window_size_blocks')).toEqual([`chainnode_validator_window_size_blocks{${labels}} 50`])
    expect(seriesOf(text, 'chainnode_validator_tombstoned')).toEqual([`chainnode_validator_tombstoned{${labels}} 0`])
    expect(seriesOf(text, 'chainnode_upgrade_plan_height')).toEqual([`chainnode_upgrade_plan_height{${labels},upgrade="v2"} 1100`])
    // 100 blocks at 2 s.
    expect(seriesOf(text, 'chainnode_upgrade_eta_seconds')).toEqual([`chainnode_upgrade_eta_seconds{${labels},upgrade="v2"} 200`])
    expect(seriesOf(text, 'chainnode_governance_unvoted_proposals')).toEqual([`chainnode_governance_unvoted_proposals{${labels}} 1`])
  })

  it('says when the last cycle failed, and keeps the time of the last one that read everything', () => {
    const text = renderExposition(serveMetrics(status({ lastRunSuccess: false, lastSuccessAtSeconds: 1_700_000_000, failedCycles: 2, cycles: 5 })))
    expect(seriesOf(text, 'chainnode_last_run_success')).toEqual(['chainnode_last_run_success 0'])
    expect(seriesOf(text, 'chainnode_last_run_success_timestamp_seconds')).toEqual(['chainnode_last_run_success_timestamp_seconds 1700000000'])
    expect(seriesOf(text, 'chainnode_run_failures_total')).toEqual(['chainnode_run_failures_total 2'])
    expect(seriesOf(text, 'chainnode_build_info')).toEqual(['chainnode_build_info{version="0.1.0",nodejs="v20.20.2"} 1'])
  })

  it('labels each series with its context when one process reads several clusters', async () => {
    const snapshot = await loadBundle('not-syncing')
    const result = diagnose([snapshot], selectRules({}))
    const { findings } = readingsOf(snapshot, result.clusters[0], true, 'prod-eu')
    expect(renderExposition(serveMetrics(status({ findings })))).toContain(
      'chainnode_finding{context="prod-eu",namespace="sc-not-syncing",chainnode="stuck-0",',
    )
  })

  const promtool = spawnSync('promtool', ['--version']).status === 0
  it.skipIf(!promtool)(
    `passes promtool check metrics${promtool ? '' : ' (skipped: promtool is not installed; scripts/setup-prometheus.sh installs it)'}`,
    async () => {
      const { findings, nodes } = await readingsFrom('not-syncing')
      const text = renderExposition(
        serveMetrics(
          status({
            findings,
            nodes,
            lastRunDurationSeconds: 1.25,
            lastRunApiRequests: 12,
            lastSuccessAtSeconds: 1,
            readingsAtSeconds: 1,
            sources: [
              { source: 'apiserver', up: true, errors: 0 },
              { source: 'chain_probe', up: false, errors: 2 },
            ],
          }),
        ),
      )
      const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' })
      expect(check.stderr + check.stdout).toBe('')
      expect(check.status).toBe(0)
    },
  )
})
