import { humanAge } from '../duration.js'
import { annotation, type SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses, podReason, podRestarts } from '../snapshot/node-layout.js'
import type { KubeObject, TableRow } from '../snapshot/types.js'
import { columns } from './columns.js'
import { visible } from './visible.js'
import { blockAgeMs, chainProbeOf } from '../snapshot/chain.js'

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

export function renderStatusText(index: SnapshotIndex, rows: StatusRow[], withNamespace: boolean, wide = false): string {
  const serverHeaders = index.snapshot.chainNodeRows[0]?.columns.map((c) => c.name) ?? ['Name']
  const chain = wide ? chainColumns(index) : undefined
  const headers = [
    ...(withNamespace ? ['namespace'] : []),
    ...serverHeaders,
    'pod',
    'ready',
    'restarts',
    'recreated',
    'config',
    ...(chain ? CHAIN_HEADERS : []),
  ]
  return columns(
    headers.map(visible),
    rows.map((r) =>
      [
        ...(withNamespace ? [r.namespace] : []),
        ...serverHeaders.map((h) => r.server[h] ?? (h === 'Name' ? r.name : '')),
        r.pod,
        r.ready,
        String(r.restarts),
        String(r.recreations),
        r.config,
        ...(chain ? chain(r) : []),
      ].map(visible),
    ),
  )
}

const CHAIN_HEADERS = ['live height', 'block age', 'peers', 'catching up']

/** -o wide: what the node's own RPC said; `<none>` when nothing answered (not running, or no RPC). */
function chainColumns(index: SnapshotIndex): (row: StatusRow) => string[] {
  return (row) => {
    const node = index.chainNodes().find((n) => n.metadata.namespace === row.namespace && n.metadata.name === row.name)
    const facts = chainProbeOf(index.snapshot, index.podOf(node!))?.chain
    if (!facts?.status) return ['<none>', '<none>', facts?.peers ? String(facts.peers.total) : '<none>', '<none>']
    const age = blockAgeMs(facts)
    const peers = facts.peers ? `${facts.peers.total} (${facts.peers.inbound} in, ${facts.peers.outbound} out)` : '<none>'
    return [String(facts.status.height), age === undefined ? '<none>' : humanAge(age), peers, String(facts.status.catchingUp)]
  }
}
