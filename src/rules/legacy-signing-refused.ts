import { refOf } from '../snapshot/index.js'
import { defineRule } from '../engine/define-rule.js'
import { operatorLogsAbout } from '../analysis/operator-logs.js'
import { eventEvidence } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'

const REFUSAL = /tmkms|legacy sign|vault-token-renewer|legacy signer/i

export default defineRule<{ events: number }>({
  id: 'legacy-signing-refused',
  title: 'The operator refuses the legacy signing path',
  severity: 'error',
  specRow: 'Legacy signing-path refusal',
  logs: ['operator'],
  check({ index, node }) {
    const events = matchingEvents(
      index,
      node,
      (e) => e.type === 'Warning' && REFUSAL.test(e.message ?? '') && /refus|no longer|not supported|remain|migrat/i.test(e.message ?? ''),
    )
    if (events.length === 0) return []
    const logs = operatorLogsAbout(index, node, REFUSAL, 3)
    return [{ subject: refOf(node), data: { events: events.length }, evidence: [...events.map(eventEvidence), ...logs] }]
  },
  summary: () => 'the operator refuses to reconcile: the legacy signing path is still in place',
  cause: () => 'the legacy signer is refused after the 5.0.0 line; a tmkms container, ConfigMap or identity Secret remains',
  action: () => 'Complete the migration to the remote signer on 4.x by following the 5.0.0 upgrade guide, then upgrade the operator.',
})
