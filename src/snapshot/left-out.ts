import { SnapshotIndex } from './index.js'
import { allContainerStatuses, containerRole, mainContainerName, type LogRole } from './node-layout.js'
import type { CollectionError, LogRecord, Snapshot } from './types.js'

/** The words of a log read in errors and manifests: "logs of pod/container (previous)". */
export const logWhat = (log: Pick<LogRecord, 'pod' | 'container' | 'previous'>) => `logs of ${log.pod}/${log.container}${log.previous ? ' (previous)' : ''}`

/**
 * The node logs a run over this snapshot would read (every container of each node's Pod, and the previous run of one
 * that restarted) that the snapshot does not hold, neither itself nor through a look-alike standing in for it.
 * A bundle replayed without them must say so: a rule that found nothing in a log it never had measured nothing.
 * Logs the snapshot already names as failed or left out are not named twice.
 */
export function unreadLogs(snapshot: Snapshot, roles?: ReadonlySet<LogRole>, index = new SnapshotIndex(snapshot)): CollectionError[] {
  const named = new Set(snapshot.collectionErrors.map((e) => `${e.namespace ?? ''}\u0000${e.what}`))
  const missing: CollectionError[] = []
  for (const node of index.chainNodes()) {
    const pod = index.podOf(node)
    if (!pod) continue
    const main = mainContainerName(node, pod)
    for (const status of allContainerStatuses(pod)) {
      if (roles && !roles.has(containerRole(status.name, main))) continue
      for (const previous of (status.restartCount ?? 0) > 0 ? [false, true] : [false]) {
        if (index.logsFor(pod.metadata.namespace, pod.metadata.name, status.name, previous)) continue
        const what = logWhat({ pod: pod.metadata.name, container: status.name, previous })
        if (named.has(`${pod.metadata.namespace ?? ''}\u0000${what}`)) continue
        missing.push({
          what,
          namespace: pod.metadata.namespace,
          reason: 'left-out',
          message: 'not in the bundle: the rules that read this log could not check it (collect the node again)',
        })
      }
    }
  }
  return missing
}

/**
 * Keep logs in the order given until their text reaches `budgetBytes`; the rest are left out with the reason, so a
 * bundle stays within what a reader takes (readLimits bundleBytes) and says what it does not carry.
 */
export function withinLogBudget(logs: LogRecord[], budgetBytes: number): { kept: LogRecord[]; leftOut: CollectionError[] } {
  const kept: LogRecord[] = []
  const leftOut: CollectionError[] = []
  let used = 0
  for (const log of logs) {
    const bytes = Buffer.byteLength(log.text)
    if (used + bytes <= budgetBytes) {
      used += bytes
      kept.push(log)
      continue
    }
    leftOut.push({
      what: logWhat(log),
      namespace: log.namespace,
      reason: 'left-out',
      message: `size limit: the bundle's logs reached ${budgetBytes} bytes before this one (${bytes} bytes)`,
    })
  }
  return { kept, leftOut }
}

/** The entries of `more` that `named` does not already hold (same what, same namespace). */
export function notYetNamed(more: CollectionError[], named: CollectionError[]): CollectionError[] {
  const seen = new Set(named.map((e) => `${e.namespace ?? ''}\u0000${e.what}`))
  return more.filter((e) => !seen.has(`${e.namespace ?? ''}\u0000${e.what}`))
}
