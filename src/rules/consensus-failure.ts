import { refOf } from '../snapshot/index.js'
import { mainContainerName } from '../snapshot/node-layout.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { grepLogs } from '../analysis/grep-logs.js'

/**
 * CometBFT's `CONSENSUS FAILURE!!!` (the consensus routine panicked and stopped) and the replay's
 * `wrong Block.Header.AppHash` (the app computed another state than the chain: a wrong binary for the
 * height, or corrupt data). Case matters: every healthy start logs `appHash=`.
 */
const CONSENSUS_FAILURE = /CONSENSUS FAILURE!/
const WRONG_APP_HASH = /wrong Block\.Header\.AppHash|AppHash mismatch|wrong AppHash/

interface ConsensusFailure {
  kind: 'consensus-failure' | 'app-hash'
  line: string
  at?: string
}

export default defineRule<ConsensusFailure>({
  id: 'consensus-failure',
  title: 'The node logs a consensus failure or a wrong app hash',
  severity: 'error',
  specRow: 'Issue 30: the chain container logs CONSENSUS FAILURE! or a wrong app hash',
  // A node that failed consensus stops: its height, its health check, its signing follow.
  explains: ['not-syncing', 'block-threshold-unhealthy', 'validator-missed-blocks', 'rpc-unreachable'],
  logs: ['main'],
  check({ index, node, pod }) {
    const main = mainContainerName(node, pod)
    const appHash = grepLogs(index, pod, main, WRONG_APP_HASH, 3)
    const failure = grepLogs(index, pod, main, CONSENSUS_FAILURE, 3)
    // A wrong app hash is the cause a consensus failure often reports: name it first, with both lines.
    const lead = appHash.at(-1) ?? failure.at(-1)
    if (!lead) return []
    return [
      {
        subject: refOf(node),
        data: { kind: appHash.length ? 'app-hash' : 'consensus-failure', line: lead.text.slice(0, 400), at: lead.at },
        evidence: [...appHash, ...failure],
        since: (appHash[0] ?? failure[0]).at,
      },
    ]
  },
  summary: (d) => (d.kind === 'app-hash' ? 'the app computed another state than the chain (wrong app hash)' : 'consensus stopped: CONSENSUS FAILURE!'),
  cause: (d) =>
    d.kind === 'app-hash'
      ? 'the block replayed gives a different app hash: the image is not the binary the chain ran at that height (a missed or early upgrade), or the data is corrupt'
      : 'the consensus routine panicked and the node stopped voting and committing; the log line after it says why',
  action: (d, on) =>
    d.kind === 'app-hash'
      ? "Check that .spec.app.image (or the upgrade for this height) is the chain's binary for it; if it is, restore the data from a snapshot."
      : `Read the panic in the app log (chainnode logs ${nodeArgs(on)} --previous), fix what it names, then restart the node.`,
})
