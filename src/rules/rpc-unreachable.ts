import { refOf } from '../snapshot/index.js'
import { chainProbeOf } from '../snapshot/chain.js'
import { foldProblem, rpcFailureOf, type RpcFailure } from '../snapshot/signing.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { field } from '../engine/evidence.js'

interface RpcUnreachable {
  target: string
  reason: RpcFailure
  /** The failure folded to one line: what was read, why it gave nothing. */
  line: string
  validator: boolean
}

export default defineRule<RpcUnreachable>({
  id: 'rpc-unreachable',
  title: "Running node's CometBFT RPC does not answer",
  severity: 'warning',
  severityNote: '(error for a validator: its signing cannot be measured)',
  specRow: 'Issue 30: a Running node whose RPC (26657) refuses, resets, times out or does not answer JSON-RPC',
  check({ index, node, pod }) {
    if (!pod || pod.status?.phase !== 'Running') return []
    const probe = chainProbeOf(index.snapshot, pod)
    if (!probe || probe.ok || probe.chain?.status) return []
    const reason = rpcFailureOf(probe.detail)
    // An unclassified failure (the port-forward itself refused by the API server or kubelet, a forward that could not be
    // set up) says nothing about the node's RPC: it stays a line of "Measured on the nodes", not a verdict.
    if (reason === 'error') return []
    const line = foldProblem(probe.detail)
    const validator = Boolean(node.spec?.validator)
    return [
      {
        subject: refOf(pod),
        data: { target: probe.target, reason, line, validator },
        evidence: [field(pod, '.status.phase', 'Running'), { kind: 'probe', source: probe.target, text: probe.detail, at: probe.at }],
        // A validator whose RPC is dead cannot be checked for signing: more than an inconvenience.
        severity: validator ? 'error' : 'warning',
        // No since: the reading says the RPC fails now, not since when (onsetOf leaves probe times out too).
      },
    ]
  },
  summary: (d) => `RPC ${d.target} does not answer: ${d.line}`,
  cause: (d) =>
    ({
      refused: 'nothing listens on the RPC port: the node process died or has not opened its RPC yet, or rpc.laddr binds another address or port',
      reset: 'the connection was cut: the process is restarting or crashing, or a proxy in between drops it',
      timeout: 'the RPC accepts but does not answer in time: the node is overloaded (CPU, disk), stuck, or the RPC is saturated',
      'not JSON': 'something other than CometBFT answers on the RPC port (another service, a proxy page)',
      'RPC error': 'CometBFT answered with an error',
    })[d.reason as Exclude<RpcFailure, 'error'>] + (d.validator ? '; signing cannot be measured through this node' : ''),
  action: (d, on) =>
    `Read the app log (chainnode logs ${nodeArgs(on)}) for a crash or a stuck start; check rpc.laddr in config.toml; by hand: kubectl port-forward ${d.target.replace(/:(\d+)$/, ' $1')} and curl localhost:${/:(\d+)$/.exec(d.target)?.[1] ?? 26657}/status.`,
})
