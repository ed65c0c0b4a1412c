import { humanAge } from '../duration.js'
import { annotation, type SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses, podReason, podRestarts } from '../snapshot/node-layout.js'
import type { KubeObject, TableRow } from '../snapshot/types.js'
import { columns } from './columns.js'

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
}

/** Format a server Table cell the way kubectl does: dates become ages, absent values print empty. */
export function formatCell(value: unknown, type: string, now: number): string {
  if (value === null || value === undefined) return ''
  // The server already renders CRD date columns as ages ("31s"); older servers send timestamps.
  if (type === 'date' && typeof value === 'string' && !Number.isNaN(Date.parse(value))) return humanAge(now - Date.parse(value))
  return String(value)
}

export function statusRows(index: SnapshotIndex): StatusRow[] {
  const now = Date.parse(index.snapshot.collectedAt)
  return index.chainNodes().map((node) => {
    const row = index.tableRow(node)
    const pod = index.podOf(node)
    // kubectl's READY counts regular containers and restartable (sidecar) init containers.
    const counted = [
      ...(pod?.spec?.containers ?? []),
      ...(pod?.spec?.initContainers ?? []).filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always'),
    ]
    const statuses = allContainerStatuses(pod).filter((s) => counted.some((c: { name: string }) => c.name === s.name))
    return {
      namespace: node.metadata.namespace ?? '',
      name: node.metadata.name,
      server: serverColumns(row, now),
      pod: pod ? podReason(pod) : '<none>',
      ready: pod ? `${statuses.filter((s) => s.ready).length}/${statuses.length}` : '0/0',
      restarts: podRestarts(pod),
      recreations: index
        .eventsFor(node)
        .filter((e) => e.reason === 'NodeRestarted')
        .reduce((sum, e) => sum + (e.count ?? 1), 0),
      config: configState(index, node, pod),
    }
  })
}

function serverColumns(row: TableRow | undefined, now: number): Record<string, string> {
  const out: Record<string, string> = {}
  row?.columns.forEach((column, i) => (out[column.name] = formatCell(row.cells[i], column.type, now)))
  return out
}

function configState(index: SnapshotIndex, node: KubeObject, pod: KubeObject | undefined): StatusRow['config'] {
  const podHash = pod?.metadata.annotations?.[annotation('config-hash')]
  const configHash = index.configMapOf(node)?.metadata.annotations?.[annotation('config-hash')]
  if (!podHash || !configHash) return 'unknown'
  return podHash === configHash ? 'in-sync' : 'pending'
}

/** The server's columns shown by default; the others (IP, validator details, data usage) with -o wide. */
const ESSENTIAL_SERVER_COLUMNS = ['Name', 'Status', 'Version', 'ChainID', 'LatestHeight']

export interface StatusTextOptions {
  withNamespace: boolean
  /** -o wide: every server column, and recreations. */
  wide?: boolean
  noHeaders?: boolean
}

/** kubectl get's layout: the essential columns, AGE last; -o wide adds the rest. */
export function renderStatusText(index: SnapshotIndex, rows: StatusRow[], options: StatusTextOptions): string {
  const all = index.snapshot.chainNodeRows[0]?.columns.map((c) => c.name) ?? ['Name']
  const server = options.wide ? all.filter((h) => h !== 'Age') : all.filter((h) => ESSENTIAL_SERVER_COLUMNS.includes(h))
  const age = all.includes('Age') ? ['Age'] : []
  const ours: [string, (r: StatusRow) => string][] = [
    ['pod', (r) => r.pod],
    ['ready', (r) => r.ready],
    ['restarts', (r) => String(r.restarts)],
    ...(options.wide ? ([['recreated', (r: StatusRow) => String(r.recreations)]] as [string, (r: StatusRow) => string][]) : []),
    ['config', (r) => r.config],
  ]
  const serverCell = (r: StatusRow, h: string) => r.server[h] ?? (h === 'Name' ? r.name : '')
  return columns(
    [...(options.withNamespace ? ['namespace'] : []), ...server, ...ours.map(([h]) => h), ...age],
    rows.map((r) => [
      ...(options.withNamespace ? [r.namespace] : []),
      ...server.map((h) => serverCell(r, h)),
      ...ours.map(([, value]) => value(r)),
      ...age.map((h) => serverCell(r, h)),
    ]),
    { noHeaders: options.noHeaders },
  )
}
