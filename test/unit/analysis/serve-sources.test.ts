import { describe, expect, it } from 'vitest'
import { renderExposition } from '../../../src/render/prometheus.js'
import type { ServeStatus } from '../../../src/analysis/serve-readings.js'
import { serveMetrics } from '../../../src/render/serve-metrics.js'
import { blindSources, mergeSources, sourcesOf } from '../../../src/analysis/serve-sources.js'
import type { Snapshot, SigningReading } from '../../../src/snapshot/types.js'
import { loadBundle } from '../../helpers/bundles.js'

const at = '2026-11-20T10:00:10.000Z'
const signing = (counted: number): SigningReading => ({
  at,
  address: 'A1B2',
  addressFrom: 'pubKey',
  source: 'own RPC',
  window: 100,
  counted,
  signed: counted,
  missed: 0,
  missedHeights: [],
  requests: counted + 1,
  problems: counted ? [] : ['/commit?height=90: connection refused'],
})
const chainProbe = (snapshot: Snapshot, pod: string, reading?: SigningReading) =>
  snapshot.probes.push({
    kind: 'chain',
    namespace: snapshot.objects.find((o) => o.kind === 'Pod' && o.metadata.name === pod)!.metadata.namespace!,
    pod,
    target: 'rpc :26657',
    ok: true,
    detail: 'moving',
    at,
    chain: { problems: [], ...(reading ? { signing: reading } : {}) },
  })

describe('what serve could read, by source', () => {
  it('a bundle read whole: the API server and the operator logs are up, the probes it did not take are absent', async () => {
    const snapshot = await loadBundle('healthy')
    expect(snapshot.logs.some((l) => l.container === 'manager')).toBe(true)
    expect(sourcesOf(snapshot)).toEqual([
      { source: 'apiserver', up: true, errors: 0 },
      { source: 'operator_logs', up: true, errors: 0 },
    ])
  })

  it('a list the API server did not answer makes it down; a Forbidden list or a node log it could not fetch are errors only', async () => {
    const snapshot = await loadBundle('healthy')
    expect(snapshot.collectionErrors).toEqual([])
    snapshot.collectionErrors.push(
      { what: 'list events in cosmos', namespace: 'cosmos', reason: 'forbidden', message: 'events is forbidden' },
      { what: 'logs of fullnode-0/node', namespace: 'cosmos', reason: 'timeout', message: 'request timed out after 2s' },
    )
    expect(sourcesOf(snapshot)[0]).toEqual({ source: 'apiserver', up: true, errors: 2 })
    snapshot.collectionErrors.push({ what: 'list pods in cosmos', namespace: 'cosmos', reason: 'timeout', message: 'request timed out after 2s' })
    expect(sourcesOf(snapshot)[0]).toEqual({ source: 'apiserver', up: false, errors: 3 })
  })

  it("the operator's manager log, a chain probe's port-forward and a signing window counted on no commit each put their own source down", async () => {
    const snapshot = await loadBundle('healthy')
    chainProbe(snapshot, 'fullnode-0', signing(100))
    chainProbe(snapshot, 'hub-fullnodes-0', signing(0))
    snapshot.collectionErrors.push(
      { what: 'logs of cosmopilot-7d9f/manager', namespace: 'cosmopilot', reason: 'unreachable', message: 'cannot reach the API server' },
      { what: 'port-forward to pod/fullnode-0:26657 (chain probe not checked)', namespace: 'cosmos', reason: 'forbidden', message: 'forbidden' },
    )
    expect(sourcesOf(snapshot)).toEqual([
      { source: 'apiserver', up: true, errors: 0 },
      { source: 'operator_logs', up: false, errors: 1 },
      { source: 'chain_probe', up: false, errors: 1 },
      { source: 'signing', up: false, errors: 1 },
    ])
  })

  it('several clusters: a source is up only where every one read it; a cycle that read nothing puts every known source down', () => {
    const merged = mergeSources([
      [
        { source: 'apiserver', up: true, errors: 0 },
        { source: 'chain_probe', up: true, errors: 0 },
      ],
      [
        { source: 'apiserver', up: false, errors: 2 },
        { source: 'signing', up: true, errors: 0 },
      ],
    ])
    expect(merged).toEqual([
      { source: 'apiserver', up: false, errors: 2 },
      { source: 'chain_probe', up: true, errors: 0 },
      { source: 'signing', up: true, errors: 0 },
    ])
    expect(blindSources(merged)).toEqual([
      { source: 'apiserver', up: false, errors: 1 },
      { source: 'chain_probe', up: false, errors: 0 },
      { source: 'signing', up: false, errors: 0 },
    ])
    expect(blindSources([])).toEqual([{ source: 'apiserver', up: false, errors: 1 }])
  })

  it('exports chainnode_source_up and chainnode_collection_errors by source, the age of the readings and the blind cycles in a row', () => {
    const status: ServeStatus = {
      version: '0.1.0',
      nodeVersion: 'v20.20.2',
      nodes: [{ namespace: 'cosmos', chainnode: 'fullnode-0', height: 120 }],
      findings: [{ namespace: 'cosmos', chainnode: 'fullnode-0', rule: 'not-syncing', severity: 'error' }],
      cycles: 7,
      failedCycles: 3,
      lastRunSuccess: false,
      watchedLists: 0,
      sources: blindSources([
        { source: 'apiserver', up: true, errors: 0 },
        { source: 'operator_logs', up: true, errors: 0 },
      ]),
      readingsAtSeconds: 1_700_000_000,
      blindInARow: 3,
      apiRequestsTotal: 50,
    }
    const text = renderExposition(serveMetrics(status))
    expect(text).toContain('chainnode_source_up{source="apiserver"} 0\nchainnode_source_up{source="operator_logs"} 0\n')
    expect(text).toContain('chainnode_collection_errors{source="apiserver"} 1\nchainnode_collection_errors{source="operator_logs"} 0\n')
    expect(text).toContain('chainnode_readings_timestamp_seconds 1700000000\n')
    expect(text).toContain('chainnode_blind_runs 3\n')
    // Kept while blind: the finding and the reading are still there, never turned into "healthy".
    expect(text).toContain('chainnode_finding{namespace="cosmos",chainnode="fullnode-0",rule="not-syncing",severity="error"} 1\n')
    expect(text).toContain('chainnode_height{namespace="cosmos",chainnode="fullnode-0"} 120\n')
  })
})
