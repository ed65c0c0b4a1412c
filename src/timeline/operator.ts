import { allOperatorLogsAbout } from '../analysis/operator-logs.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { parseLogLine } from './log-line.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { operatorLeaseName } from '../snapshot/operator.js'
import type { ChainNode, Workload } from '../snapshot/kinds.js'

/** Enough to cover the tail the collector reads of a manager log (500 lines per replica). */
const MAX_OPERATOR_LINES = 2000

/** The operator's manager log lines that name this node, and when its leader Lease last changed hands. */
export function operatorEntries(index: SnapshotIndex, node: ChainNode, now: string): RawEntry[] {
  const operator = index.operatorFor(node)
  if (!operator) return []
  const subject = { kind: 'Deployment', namespace: operator.metadata.namespace, name: operator.metadata.name }
  const out: RawEntry[] = []
  for (const line of allOperatorLogsAbout(index, node, MAX_OPERATOR_LINES)) {
    const at = isoTime(line.at)
    if (!at) continue
    const parsed = parseLogLine(line.text)
    out.push({ at, source: 'operator', kind: 'log/manager', subject, level: parsed.level === 'normal' ? 'normal' : parsed.level, text: parsed.text })
  }
  out.push(...leaseEntries(index, operator, now))
  return out
}

function leaseEntries(index: SnapshotIndex, operator: Workload, now: string): RawEntry[] {
  // The rule's own name for it: --release-name on the manager's command line counts as its environment does.
  const name = operatorLeaseName(operator)
  const lease = index.get('Lease', operator.metadata.namespace, name)
  if (!lease) return []
  const subject = { kind: 'Lease', namespace: lease.metadata.namespace, name: lease.metadata.name }
  const out: RawEntry[] = []
  const holder: string = lease.spec?.holderIdentity ?? '<none>'
  const acquired = isoTime(lease.spec?.acquireTime)
  if (acquired) {
    const transitions = lease.spec?.leaseTransitions
    out.push({
      at: acquired,
      source: 'lease',
      kind: 'lease-acquired',
      subject,
      level: 'info',
      text: `leader lease acquired by ${holder}${transitions !== undefined ? ` (transition ${transitions})` : ''}`,
    })
  }
  const renewed = isoTime(lease.spec?.renewTime)
  const durationMs = (lease.spec?.leaseDurationSeconds ?? 15) * 1000
  // A holder that stopped renewing is the change worth seeing; regular renewals are not.
  if (renewed && Date.parse(now) - Date.parse(renewed) > 2 * durationMs)
    out.push({ at: renewed, source: 'lease', kind: 'lease-renewed', subject, level: 'warning', text: `leader lease last renewed by ${holder}, not since` })
  return out
}
