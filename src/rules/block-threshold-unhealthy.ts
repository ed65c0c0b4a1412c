import { readinessRefusals } from '../analysis/chain-evidence.js'
import { refOf } from '../snapshot/index.js'
import { NODE_UTILS, podReady } from '../snapshot/node-layout.js'
import { defineRule } from '../engine/define-rule.js'
import { goDurationMs } from '../util/duration.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'

/** node-utils' `got latest block ... threshold=1m0s age=6m40.5s`: the block /ready found too old. */
function olderThanThreshold(text: string, blockThreshold: string): boolean {
  const threshold = goDurationMs(/\bthreshold=(\S+)/.exec(text)?.[1] ?? blockThreshold)
  const age = goDurationMs(/\bage=(\S+)/.exec(text)?.[1])
  return threshold !== undefined && age !== undefined && age > threshold
}

export default defineRule<{ blockThreshold: string }>({
  id: 'block-threshold-unhealthy',
  title: 'Node marked unhealthy by node-utils (blockThreshold)',
  severity: 'warning',
  specRow: 'Node not syncing: with blockThreshold, a stalled node may be marked unhealthy',
  logs: ['node-utils'],
  suppressedBy: ['not-syncing'],
  check({ index, node, pod, now }) {
    const blockThreshold: string | undefined = node.spec?.config?.blockThreshold
    if (!pod || !blockThreshold || blockThreshold === '0s' || podReady(pod) || node.spec?.config?.ignoreSyncing) return []
    // Only 417 is node-utils refusing readiness; a 500 or `error getting latest block` is an unreachable node.
    const probes = readinessRefusals(index, pod, now)
    const newestAge = grepLogs(index, pod, NODE_UTILS, /got latest block/, 1, { anyLevel: true }).filter((e) => olderThanThreshold(e.text, blockThreshold))
    if (probes.length === 0 && newestAge.length === 0) return []
    return [
      {
        subject: refOf(pod),
        data: { blockThreshold },
        evidence: [field(node, '.spec.config.blockThreshold', blockThreshold), field(pod, 'Ready', false), ...probes.map(eventEvidence), ...newestAge],
      },
    ]
  },
  summary: (d) => `Pod is NotReady: the newest block is older than blockThreshold ${d.blockThreshold}`,
  cause: () =>
    'node-utils answers 417 on /ready when the node is syncing or its latest block is older than blockThreshold; the Pod leaves the Service endpoints but is not restarted',
  action: () => 'Find why the height stopped advancing (see not-syncing); raise blockThreshold only if blocks are legitimately slow.',
})
