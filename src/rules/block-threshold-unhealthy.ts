import { refOf } from '../snapshot/index.js'
import { NODE_UTILS, podReady } from '../snapshot/node-layout.js'
import { defineRule } from '../engine/define-rule.js'
import { eventEvidence, field, grepLogs, matchingEvents } from '../engine/rule-helpers.js'

export default defineRule<{ blockThreshold: string }>({
  id: 'block-threshold-unhealthy',
  title: 'Node marked unhealthy by node-utils (blockThreshold)',
  severity: 'warning',
  specRow: 'Node not syncing: with blockThreshold, a stalled node may be marked unhealthy',
  logs: ['node-utils'],
  suppressedBy: ['not-syncing'],
  check({ index, node, pod }) {
    const blockThreshold: string | undefined = node.spec?.config?.blockThreshold
    if (!pod || !blockThreshold || blockThreshold === '0s' || podReady(pod) || node.spec?.config?.ignoreSyncing) return []
    const probes = matchingEvents(index, pod, (e) => e.reason === 'Unhealthy' && /417/.test(e.message))
    const ageLogs = grepLogs(index, pod, NODE_UTILS, /latest block|threshold|age=/, 3)
    if (probes.length === 0 && ageLogs.length === 0) return []
    return [
      {
        subject: refOf(pod),
        data: { blockThreshold },
        evidence: [field(node, '.spec.config.blockThreshold', blockThreshold), field(pod, 'Ready', false), ...probes.map(eventEvidence), ...ageLogs],
      },
    ]
  },
  summary: (d) => `Pod is NotReady: the newest block is older than blockThreshold ${d.blockThreshold}`,
  cause: () =>
    'node-utils answers 417 on /ready when the node is syncing or its latest block is older than blockThreshold; the Pod leaves the Service endpoints but is not restarted',
  action: () => 'Find why the height stopped advancing (see not-syncing); raise blockThreshold only if blocks are legitimately slow.',
})
