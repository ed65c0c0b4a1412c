import type { DoctorResult } from '../engine/doctor-result.js'
import type { NodeReading, ServeStatus } from '../analysis/serve-readings.js'
import { doctorJson } from './doctor-json.js'
import { PROMETHEUS_CONTENT_TYPE, renderExposition, type Labels, type MetricFamily, type Sample } from './prometheus.js'

const nodeLabels = (n: { namespace: string; chainnode: string; context?: string }): Labels =>
  n.context !== undefined ? { context: n.context, namespace: n.namespace, chainnode: n.chainnode } : { namespace: n.namespace, chainnode: n.chainnode }

function perNode(nodes: readonly NodeReading[], value: (n: NodeReading) => number | boolean | undefined): Sample[] {
  const samples: Sample[] = []
  for (const node of nodes) {
    const v = value(node)
    if (v !== undefined) samples.push({ labels: nodeLabels(node), value: Number(v) })
  }
  return samples
}

const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, help, type: 'gauge', samples })
const single = (value: number | undefined): Sample[] => (value === undefined ? [] : [{ value }])

/** Every family `serve` exposes on /metrics, in a fixed order. */
export function serveMetrics(status: ServeStatus): MetricFamily[] {
  const { nodes } = status
  return [
    gauge(
      'chainnode_finding',
      'An active doctor finding: 1 per node, rule and severity; the series ends when the finding clears. Docs: docs/rules/<rule>.md',
      status.findings.map((f) => ({ labels: { ...nodeLabels(f), rule: f.rule, severity: f.severity }, value: 1 })),
    ),
    gauge(
      'chainnode_height',
      'Latest block height the node reports on its RPC (/status).',
      perNode(nodes, (n) => n.height),
    ),
    gauge(
      'chainnode_block_age_seconds',
      'Age of the latest block when the probe read it.',
      perNode(nodes, (n) => n.blockAgeSeconds),
    ),
    gauge(
      'chainnode_peers',
      'Peers the node is connected to (/net_info).',
      perNode(nodes, (n) => n.peers),
    ),
    gauge(
      'chainnode_catching_up',
      '1 while the node says it is catching up (block sync or state sync).',
      perNode(nodes, (n) => n.catchingUp),
    ),
    gauge(
      'chainnode_probe_success',
      '1 when the chain probe read the node through a port-forward, 0 when it could not.',
      perNode(nodes, (n) => n.probeSuccess),
    ),
    gauge(
      'chainnode_validator_jailed',
      '1 when the validator is jailed (.status.jailed of the ChainNode).',
      perNode(nodes, (n) => n.jailed),
    ),
    gauge(
      'chainnode_validator_missed_blocks',
      'Blocks of the signing window (the last --signing-window commits) the validator did not sign.',
      perNode(nodes, (n) => n.missedBlocks),
    ),
    gauge(
      'chainnode_validator_signing_window_blocks',
      'Commits counted for chainnode_validator_missed_blocks (fewer than the window on a young or pruned chain).',
      perNode(nodes, (n) => n.signingWindowCounted),
    ),
    gauge(
      'chainnode_validator_window_missed_blocks',
      "Blocks the validator missed in x/slashing's signed_blocks_window, as the chain counts them (signing info missed_blocks_counter).",
      perNode(nodes, (n) => n.cosmos?.windowMissed),
    ),
    gauge(
      'chainnode_validator_window_size_blocks',
      "x/slashing's signed_blocks_window: the blocks chainnode_validator_window_missed_blocks is counted over.",
      perNode(nodes, (n) => n.cosmos?.windowSize),
    ),
    gauge(
      'chainnode_validator_tombstoned',
      '1 when the chain tombstoned the validator for a double sign (it can never be unjailed).',
      perNode(nodes, (n) => n.cosmos?.tombstoned),
    ),
    gauge(
      'chainnode_upgrade_plan_height',
      "Height of the chain's pending x/upgrade plan (label upgrade: its name); no series when none is planned.",
      nodes.flatMap((n) => (n.cosmos?.upgrade ? [{ labels: { ...nodeLabels(n), upgrade: n.cosmos.upgrade.name }, value: n.cosmos.upgrade.height }] : [])),
    ),
    gauge(
      'chainnode_upgrade_eta_seconds',
      "Estimated time until the pending upgrade's height, at the chain's recent block time.",
      nodes.flatMap((n) =>
        n.cosmos?.upgrade?.etaSeconds !== undefined
          ? [{ labels: { ...nodeLabels(n), upgrade: n.cosmos.upgrade.name }, value: n.cosmos.upgrade.etaSeconds }]
          : [],
      ),
    ),
    gauge(
      'chainnode_governance_unvoted_proposals',
      'Proposals in their voting period the validator has not voted on.',
      perNode(nodes, (n) => n.cosmos?.unvotedProposals),
    ),
    gauge('chainnode_nodes', 'ChainNodes in scope at the last cycle that read the cluster.', [{ value: nodes.length }]),
    gauge('chainnode_run_duration_seconds', 'Duration of the last diagnosis cycle.', single(status.lastRunDurationSeconds)),
    gauge('chainnode_run_api_requests', 'API server requests of the last diagnosis cycle.', single(status.lastRunApiRequests)),
    gauge('chainnode_watched_lists', 'Lists kept current by watches, which a cycle reads without listing them again.', [{ value: status.watchedLists }]),
    gauge(
      'chainnode_last_run_success',
      '1 when the last cycle read everything in scope; 0 when it could not (the readings above are then from the last cycle that could).',
      [{ value: status.lastRunSuccess ? 1 : 0 }],
    ),
    gauge(
      'chainnode_last_run_success_timestamp_seconds',
      'Unix time of the end of the last cycle that read everything in scope.',
      single(status.lastSuccessAtSeconds),
    ),
    gauge(
      'chainnode_source_up',
      '1 when the last cycle read this source (apiserver, operator_logs, chain_probe, signing) without a failure, 0 when a read of it failed: what it would show is then unknown. A source the cycle did not read is absent.',
      status.sources.map((h) => ({ labels: { source: h.source }, value: h.up ? 1 : 0 })),
    ),
    gauge(
      'chainnode_collection_errors',
      'Reads that failed in the last cycle, by source (forbidden, unreachable, timed out; a cycle that could not read the cluster at all counts 1 for apiserver).',
      status.sources.map((h) => ({ labels: { source: h.source }, value: h.errors })),
    ),
    gauge(
      'chainnode_readings_timestamp_seconds',
      'Unix time of the cycle the findings and readings above come from. While serve cannot read the API server they are kept, and grow older than the interval.',
      single(status.readingsAtSeconds),
    ),
    gauge('chainnode_blind_runs', 'Cycles in a row, up to the last, that could not read the API server (/readyz fails past --unready-after).', [
      { value: status.blindInARow },
    ]),
    { name: 'chainnode_runs_total', help: 'Diagnosis cycles run.', type: 'counter', samples: [{ value: status.cycles }] },
    {
      name: 'chainnode_run_failures_total',
      help: 'Diagnosis cycles that could not read the cluster at all.',
      type: 'counter',
      samples: [{ value: status.failedCycles }],
    },
    {
      name: 'chainnode_api_requests_total',
      help: 'Requests made to the API server since the start.',
      type: 'counter',
      samples: [{ value: status.apiRequestsTotal }],
    },
    gauge('chainnode_build_info', 'Version of kubectl-chainnode and of Node.js serving these metrics.', [
      { labels: { version: status.version, nodejs: status.nodeVersion }, value: 1 },
    ]),
  ]
}

/** How serve words what it serves: /metrics in Prometheus text, /report as doctor's JSON (app/serve.ts ServeRendering). */
export const SERVE_RENDERING = {
  metrics: { contentType: PROMETHEUS_CONTENT_TYPE, render: (status: ServeStatus) => renderExposition(serveMetrics(status)) },
  report: (result: DoctorResult, version: string) => JSON.stringify(doctorJson(result, version)),
}
