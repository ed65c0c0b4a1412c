import { refOf } from '../snapshot/index.js'
import { defineRule, nodeArgs } from '../engine/define-rule.js'
import { byReason, matchingEvents } from '../snapshot/events.js'
import { eventEvidence, field } from '../engine/evidence.js'

export default defineRule<{ phase: string; message?: string }>({
  id: 'node-error',
  title: 'ChainNode in phase Error (Pod failed to start)',
  severity: 'error',
  specRow: 'Reference §2.1: phase Error when a recreated Pod does not start within 5 minutes',
  explains: ['rpc-unreachable', 'not-syncing'],
  suppressedBy: ['signer-discovery-timeout', 'signer-pubkey', 'image-pull', 'runs-as-root', 'priority-class-missing'],
  check({ index, node }) {
    if (node.status?.phase !== 'Error') return []
    const events = matchingEvents(index, node, byReason('NodeError', 'UpgradeFailed'))
    return [
      {
        subject: refOf(node),
        data: { phase: 'Error', message: events.at(-1)?.message },
        evidence: [field(node, '.status.phase', 'Error'), ...events.map(eventEvidence)],
      },
    ]
  },
  summary: (d) => `node is in phase Error${d.message ? `: ${d.message}` : ''}`,
  cause: () => 'the main container of a recreated Pod did not start within 5 minutes, or the Pod failed',
  action: (_d, on) =>
    `Describe the Pod (kubectl describe pod ${nodeArgs(on)}) and read the previous logs of the main container (chainnode logs ${nodeArgs(on)} --previous).`,
})
