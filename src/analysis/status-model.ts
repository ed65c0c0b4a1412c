import { humanAge } from '../util/duration.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses, podReason, podRestarts } from '../snapshot/node-layout.js'
import type { TableRow } from '../snapshot/types.js'
import { annotation } from '../snapshot/operator.js'
import { reconcileHistory } from './reconcile-log.js'
import { configState } from './config-state.js'
import type { ChainNode, ConfigMap, Pod } from '../snapshot/kinds.js'

/** A row of `status`: what -o json prints and the table shows, one per ChainNode. */
export interface StatusRow {
  namespace: string
  name: string
  /** The server's printer columns for the ChainNode, as `kubectl get -o wide` shows them. */
  server: Record<string, string>
  pod: string
  ready: string
  restarts: number
  recreations: number
  config: 'in-sync' | 'pending' | 'unknown'
  /** The ChainNode's labels (--show-labels, -L). */
  labels: Record<string, string>
  /** Why CONFIG is unknown: what is missing to compare the hashes. */
  configUnknown?: string
  /** The operator's latest reconcile error, while its reconciles of the node keep failing. */
  operatorError?: { error: string; count: number; since: string; last: string }
}

/** Format a server Table cell the way kubectl does: dates become ages, absent values print empty. */
export function formatCell(value: unknown, type: string, now: number): string {
  if (value === null || value === undefined) return ''
  // The server already renders CRD date columns as ages ("31s"); older servers send timestamps.
  if (type === 'date' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return humanAge(now - Date.parse(value))
  // A list or map (a column whose JSONPath names one) is shown as its JSON, as data: String() would call the
  // cell's own "toString" or "valueOf" keys, and a bundle's cell may carry any.
  return typeof value === 'object' ? JSON.stringify(value) : String(value)
}

export function statusRows(index: SnapshotIndex): StatusRow[] {
  const now = Date.parse(index.snapshot.collectedAt)
  return index.chainNodes().map((node) => {
    const row = index.tableRow(node)
    const pod = index.podOf(node)
    // kubectl's READY counts regular containers and restartable (sidecar) init containers.
    const counted = [...(pod?.spec?.containers ?? []), ...(pod?.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always')]
    const statuses = allContainerStatuses(pod).filter((s) => counted.some((c) => c.name === s.name))
    return {
      namespace: node.metadata.namespace ?? '',
      name: node.metadata.name,
      server: serverColumns(row, now),
      pod: pod ? podReason(pod) : '<none>',
      ready: pod ? `${statuses.filter((s) => s.ready).length}/${statuses.length}` : '0/0',
      restarts: podRestarts(pod),
      labels: node.metadata.labels ?? {},
      recreations: index
        .eventsFor(node)
        .filter((e) => e.reason === 'NodeRestarted')
        .reduce((sum, e) => sum + (e.count ?? 1), 0),
      ...configColumn(index, node, pod, now),
      ...operatorError(index, node),
    }
  })
}

function operatorError(index: SnapshotIndex, node: ChainNode): Pick<StatusRow, 'operatorError'> {
  const history = reconcileHistory(index, node)
  const latest = history.failing.at(-1)
  if (!history.latestFailed || history.onlyConflicts || !latest) return {}
  return { operatorError: { error: latest.error ?? '(no error text)', count: history.failingCount, since: history.failingSince!, last: latest.at } }
}

function serverColumns(row: TableRow | undefined, now: number): Record<string, string> {
  // Own keys whatever the column is called ("__proto__", "constructor" are data here).
  return Object.fromEntries((row?.columns ?? []).map((column, i) => [column.name, formatCell(row!.cells[i], column.type, now)]))
}

/**
 * CONFIG from the one config verdict (analysis/config-state.ts): comparable only when both config-hashes are there;
 * a change the Pod has not taken yet (or the operator defers) is pending, anything else in sync.
 */
function configColumn(index: SnapshotIndex, node: ChainNode, pod: Pod | undefined, now: number): Pick<StatusRow, 'config' | 'configUnknown'> {
  const state = configState(index, node, now)
  if (state.podHash && state.configMapHash) return { config: state.verdict === 'pending' || state.verdict === 'deferred' ? 'pending' : 'in-sync' }
  return { config: 'unknown', configUnknown: unknownReason(index, node, pod, index.configMapOf(node), state.podHash) }
}

/** What is missing to compare the Pod's config-hash with the ConfigMap's, in the words of the fix. */
function unknownReason(index: SnapshotIndex, node: ChainNode, pod: Pod | undefined, configMap: ConfigMap | undefined, podHash: string | undefined): string {
  const key = annotation('config-hash')
  const unread = (kind: string) =>
    index.snapshot.collectionErrors.find((e) => e.what.toLowerCase().includes(kind) && (!e.namespace || e.namespace === node.metadata.namespace))
  const configMapsUnread = unread('configmaps')
  if (!configMap && configMapsUnread) return `ConfigMaps could not be read (${configMapsUnread.reason}): grant list on configmaps to compare config-hashes`
  if (!pod) return unread('pods') ? 'Pods could not be read' : 'no Pod yet: the operator has not created it (chainnode doctor says why)'
  if (!configMap) return `no ConfigMap of the node's name: the operator renders the configuration there (chainnode doctor says why it has not)`
  if (!podHash) return `the Pod has no ${key} annotation: it was not created by this operator, or by a release that does not write it`
  return `the ConfigMap has no ${key} annotation: the operator has not finished rendering the configuration`
}
