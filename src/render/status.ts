import { proseWidth, wrap } from './width.js'
import { humanAge } from '../util/duration.js'
import type { StatusRow } from '../analysis/status-model.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { columns } from './columns.js'
import { visible } from './visible.js'
import { blockAgeMs, chainProbeOf } from '../snapshot/chain.js'
import { rpcFailureOf } from '../snapshot/signing.js'
import { unknownConfigLines } from './status-notes.js'
import { labelColumns, labelsCell } from './status-listing.js'

/** The server's columns shown by default; the others (IP, validator details, data usage) with -o wide. */
const ESSENTIAL_SERVER_COLUMNS = ['Name', 'Status', 'Version', 'ChainID', 'LatestHeight']

export interface StatusTextOptions {
  withNamespace: boolean
  /** -o wide: every server column, recreations, and what the nodes' own RPC said. */
  wide?: boolean
  noHeaders?: boolean
  /** --show-labels: a LABELS column last. */
  showLabels?: boolean
  /** -L: a column per label key, after AGE. */
  labelColumns?: readonly string[]
}

type Column = [string, (r: StatusRow) => string]

/** kubectl get's layout: the essential columns, AGE last; -o wide adds the rest. No cell is cut: a long row wraps in the terminal. */
export function renderStatusText(index: SnapshotIndex, rows: StatusRow[], options: StatusTextOptions): string {
  const all = index.snapshot.chainNodeRows[0]?.columns.map((c) => c.name) ?? ['Name']
  const server = options.wide ? all.filter((h) => h !== 'Age') : all.filter((h) => ESSENTIAL_SERVER_COLUMNS.includes(h))
  const age = all.includes('Age') ? ['Age'] : []
  const chain = options.wide ? chainColumns(index) : undefined
  // Signing columns only where there is a validator to show them for.
  // The operator's CRD prints .status.jailed as JAILED already; ours is the same field, for CRDs without that column.
  const jailed = !server.some((h) => h.toLowerCase() === 'jailed')
  const signing = options.wide && index.chainNodes().some((n) => n.spec?.validator) ? signingColumns(index, jailed) : undefined
  // The Cosmos SDK columns only where a chain answered as one (a kvstore chain has nothing to show there).
  const cosmos = options.wide && index.snapshot.probes.some((p) => p.chain?.cosmos?.prefix) ? cosmosColumns(index) : undefined
  const labelKeys = labelColumns(options.labelColumns)
  const ours: Column[] = [
    ['pod', (r) => r.pod],
    ['ready', (r) => r.ready],
    ['restarts', (r) => String(r.restarts)],
    ...(options.wide ? ([['recreated', (r: StatusRow) => String(r.recreations)]] as Column[]) : []),
    ['config', (r) => r.config],
  ]
  const serverCell = (r: StatusRow, h: string) => (Object.hasOwn(r.server, h) ? r.server[h] : h === 'Name' ? r.name : '')
  return columns(
    [
      ...(options.withNamespace ? ['namespace'] : []),
      ...server,
      ...ours.map(([h]) => h),
      ...(chain ? CHAIN_HEADERS : []),
      ...(signing ? SIGNING_HEADERS.slice(0, jailed ? 4 : 3) : []),
      ...(cosmos ? COSMOS_HEADERS : []),
      ...age,
      ...labelKeys.map((c) => c.header),
      ...(options.showLabels ? ['labels'] : []),
    ].map(visible),
    rows.map((r) =>
      [
        ...(options.withNamespace ? [r.namespace] : []),
        ...server.map((h) => serverCell(r, h)),
        ...ours.map(([, value]) => value(r)),
        ...(chain ? chain(r) : []),
        ...(signing ? signing(r) : []),
        ...(cosmos ? cosmos(r) : []),
        ...age.map((h) => serverCell(r, h)),
        ...labelKeys.map((c) => (Object.hasOwn(r.labels, c.key) ? r.labels[c.key] : '')),
        ...(options.showLabels ? [labelsCell(r.labels)] : []),
      ].map(visible),
    ),
    { noHeaders: options.noHeaders },
  )
}

/**
 * What status says about the rows below its table, as kubectl's notes: the operator's latest error on a node, and why
 * a CONFIG cell says unknown. The command writes them to stderr, so stdout holds only the table. width: where they wrap.
 */
export function statusNotes(index: SnapshotIndex, rows: StatusRow[], withNamespace: boolean, width: number | undefined): string[] {
  const errors = operatorErrorLines(rows, Date.parse(index.snapshot.collectedAt), withNamespace, width)
  const unknown = unknownConfigLines(rows, withNamespace, width)
  return [...errors, ...(errors.length && unknown.length ? [''] : []), ...unknown]
}

/**
 * Like kubectl's reason for a Pod that is not Running: why the operator cannot reconcile a node. Wrapped, not cut:
 * the cause (the quota, the webhook) comes last in the operator's wording.
 */
function operatorErrorLines(rows: StatusRow[], now: number, withNamespace: boolean, width: number | undefined): string[] {
  const failing = rows.filter((r) => r.operatorError)
  if (failing.length === 0) return []
  const lines = failing.flatMap(({ namespace, name, operatorError: e }) => {
    const repeats = e!.count > 1 ? ` (x${e!.count} over ${humanAge(Date.parse(e!.last) - Date.parse(e!.since))})` : ''
    const text = `${withNamespace ? `${namespace}/` : ''}${visible(name)}: ${visible(e!.error)}${repeats}, last ${humanAge(now - Date.parse(e!.last))} ago`
    return wrap(text, proseWidth(width), '  ', '    ')
  })
  return ["Reconcile failing (the operator's latest error):", ...lines]
}

const CHAIN_HEADERS = ['live height', 'block age', 'peers', 'catching up']

/** -o wide: what the node's own RPC said; `<none>` when nothing answered (not running, or no RPC). */
function chainColumns(index: SnapshotIndex): (row: StatusRow) => string[] {
  return (row) => {
    const node = index.chainNodes().find((n) => n.metadata.namespace === row.namespace && n.metadata.name === row.name)
    const probe = chainProbeOf(index.snapshot, index.podOf(node!))
    const facts = probe?.chain
    // A probe that got no answer says why where the height would be: in a word, or the error's own last words.
    const height = probe && !facts?.status ? `<error: ${errorName(probe.detail)}>` : '<none>'
    if (!facts?.status) return [height, '<none>', facts?.peers ? String(facts.peers.total) : '<none>', '<none>']
    const age = blockAgeMs(facts)
    const peers = facts.peers ? `${facts.peers.total} (${facts.peers.inbound} in, ${facts.peers.outbound} out)` : '<none>'
    return [String(facts.status.height), age === undefined ? '<none>' : humanAge(age), peers, String(facts.status.catchingUp)]
  }
}

/**
 * The failure of a probe as a cell names: refused, timeout, reset…, or for an error of another kind the end of its
 * chain ("forward not found for port 26657 in pod …"), never just "error". One line, whole.
 */
export function errorName(detail: string): string {
  const reason = rpcFailureOf(detail)
  if (reason !== 'error') return reason
  const last = detail.replace(/\s+/g, ' ').trim().split(': ').at(-1)?.trim()
  return last || 'unknown error'
}

const SIGNING_HEADERS = ['signed', 'missed', 'power', 'jailed']

/** -o wide, validators: blocks signed of those counted in the chain's last commits, voting power, jailed (.status.jailed). */
function signingColumns(index: SnapshotIndex, withJailed: boolean): (row: StatusRow) => string[] {
  const cells = (row: StatusRow): string[] => {
    const node = index.chainNodes().find((n) => n.metadata.namespace === row.namespace && n.metadata.name === row.name)
    if (!node?.spec?.validator) return ['<none>', '<none>', '<none>', '<none>']
    const facts = chainProbeOf(index.snapshot, index.podOf(node))?.chain
    const signing = facts?.signing
    // The chain's own staking record when it was read, else what the operator wrote.
    const chainJailed = facts?.cosmos?.validator?.staking?.jailed
    const jailed = chainJailed !== undefined ? String(chainJailed) : typeof node.status?.jailed === 'boolean' ? String(node.status.jailed) : '<none>'
    if (!signing?.counted) return ['<none>', '<none>', signing?.votingPower !== undefined ? String(signing.votingPower) : '<none>', jailed]
    return [`${signing.signed}/${signing.counted}`, String(signing.missed), signing.votingPower !== undefined ? String(signing.votingPower) : '<none>', jailed]
  }
  return (row) => cells(row).slice(0, withJailed ? 4 : 3)
}

const COSMOS_HEADERS = ['window', 'tombstoned', 'upgrade']

/** -o wide on a Cosmos SDK chain: x/slashing's missed/window for validators, tombstoned, and the next upgrade (name@height). */
function cosmosColumns(index: SnapshotIndex): (row: StatusRow) => string[] {
  return (row) => {
    const node = index.chainNodes().find((n) => n.metadata.namespace === row.namespace && n.metadata.name === row.name)
    const cosmos = chainProbeOf(index.snapshot, index.podOf(node!))?.chain?.cosmos
    const info = cosmos?.validator?.signingInfo
    const window = info && cosmos?.slashing ? `${info.missedBlocksCounter}/${cosmos.slashing.signedBlocksWindow}` : '<none>'
    const plan = cosmos?.upgradePlan
    return [window, info ? String(info.tombstoned) : '<none>', plan ? `${plan.name}@${plan.height}` : '<none>']
  }
}
