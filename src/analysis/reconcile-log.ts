import type { SnapshotIndex } from '../snapshot/index.js'
import type { LogRecord } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'
import type { Evidence } from '../engine/define-rule.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { logLines } from '../snapshot/log-lines.js'
import type { ChainNode, ChainNodeSet, Pod } from '../snapshot/kinds.js'

/** One line controller-runtime's zap logger wrote inside a reconcile (it carries a reconcileID). */
export interface ReconcileLine {
  at: string
  kind: 'ChainNode' | 'ChainNodeSet'
  namespace: string
  name: string
  reconcileID: string
  msg: string
  level?: string
  /** The `error` field: set on `Reconciler error` lines and on the operator's own logger.Error calls. */
  error?: string
  /** The `phase` field of `updating .status.phase` lines. */
  phase?: string
  /** Where the line was read, e.g. "log of cosmopilot-7d9f-x2k4/manager". */
  source: string
}

/** Reconcile errors with the same text, as kubectl aggregates Events: how many, first and last time. */
export interface ReconcileErrorGroup {
  kind: ReconcileLine['kind']
  name: string
  error: string
  count: number
  first: string
  last: string
  source: string
}

export interface ReconcileHistory {
  /** Every `Reconciler error` about the node (and its ChainNodeSet), oldest first. */
  failures: ReconcileLine[]
  groups: ReconcileErrorGroup[]
  /** The node's latest reconcile returned an error: no reconcile completed without one since. */
  latestFailed: boolean
  /**
   * The failures since the last reconcile that went through, of the node and of its set, oldest first: an
   * older failure of either, or one of the other that has since recovered, is no part of it.
   */
  failing: ReconcileLine[]
  /** The first failure after the last reconcile that went through (when latestFailed). */
  failingSince?: string
  /** Failures since then. */
  failingCount: number
  /** Every failure since then is an optimistic-lock conflict, which controller-runtime retries at once. */
  onlyConflicts: boolean
}

/** The API server refused an update made from a stale read: routine, the next reconcile reads afresh. */
export const isConflict = (error: string | undefined): boolean => /the object has been modified; please apply your changes/.test(error ?? '')

const RECONCILER_ERROR = 'Reconciler error'
const KINDS = ['ChainNode', 'ChainNodeSet'] as const

/** zap's `ts`: float seconds since the epoch (older controller-runtime) or an RFC 3339 string (newer). */
export function zapTime(ts: unknown): string | undefined {
  if (typeof ts === 'number' && Number.isFinite(ts)) return new Date(Math.round(ts * 1000)).toISOString()
  if (typeof ts === 'string') {
    const ms = Date.parse(ts)
    if (!Number.isNaN(ms)) return new Date(ms).toISOString()
  }
  return undefined
}

/**
 * A manager log line as a reconcile line, or undefined. Production builds write JSON lines; with
 * DEBUG_MODE the console encoder writes `ts<TAB>LEVEL<TAB>msg<TAB>{fields}`.
 */
export function parseReconcileLine(text: string, criTime: string | undefined, source: string): ReconcileLine | undefined {
  if (!text.includes('reconcileID')) return undefined
  let fields: Record<string, unknown>
  let consoleParts: string[] | undefined
  try {
    if (text.startsWith('{')) fields = parseJsonPruned(text)
    else {
      consoleParts = text.split('\t')
      const json = consoleParts.findIndex((part) => part.startsWith('{'))
      if (json < 3) return undefined
      fields = parseJsonPruned(consoleParts.slice(json).join('\t'))
    }
  } catch {
    return undefined
  }
  const reconcileID = fields.reconcileID
  if (typeof reconcileID !== 'string') return undefined
  const kind = KINDS.find((k) => typeof fields[k] === 'object' && fields[k] !== null) ?? KINDS.find((k) => fields.controllerKind === k)
  if (!kind) return undefined
  const ref = (fields[kind] ?? {}) as { name?: unknown; namespace?: unknown }
  const name = typeof ref.name === 'string' ? ref.name : fields.name
  const namespace = typeof ref.namespace === 'string' ? ref.namespace : fields.namespace
  if (typeof name !== 'string' || typeof namespace !== 'string') return undefined
  const zapAt = zapTime(fields.ts) ?? zapTime(consoleParts?.[0])
  // RFC 3339 `ts` has whole seconds: the kubelet's time of the same line keeps the order of a retry burst.
  const at = zapAt && criTime && Math.abs(Date.parse(criTime) - Date.parse(zapAt)) < 1000 ? criTime : (zapAt ?? criTime)
  if (!at) return undefined
  const msg = typeof fields.msg === 'string' ? fields.msg : (consoleParts?.[2] ?? '')
  const level = typeof fields.level === 'string' ? fields.level : consoleParts?.[1]?.toLowerCase()
  const error = typeof fields.error === 'string' ? fields.error : undefined
  const phase = typeof fields.phase === 'string' ? fields.phase : undefined
  return { at, kind, namespace, name, reconcileID, msg, level, error, phase, source }
}

/**
 * Every reconcile line of one manager log about objects in the namespaces of the snapshot's nodes, by
 * object; parsed once however many nodes ask. A line naming none of those namespaces cannot be asked
 * for and is not parsed (a scoped run reads an operator log that covers the whole cluster).
 */
function reconcileLinesOf(index: SnapshotIndex, pod: Pod, record: LogRecord): Map<string, ReconcileLine[]> {
  const about = namespacesAsked(index)
  // Keyed by the filter too: a narrowed snapshot shares its log records with the one it came from.
  const filterKey = about?.join(' ') ?? ''
  let byFilter = parsed.get(record)
  if (!byFilter) parsed.set(record, (byFilter = new Map()))
  let byObject = byFilter.get(filterKey)
  if (!byObject) {
    byObject = new Map()
    const source = `log of ${pod.metadata.name}/${record.container}${record.previous ? ' (previous)' : ''}`
    for (const line of logLines(index, pod, record.container, record.previous)) {
      if (about && !about.some((namespace) => line.text.includes(namespace))) continue
      const entry = parseReconcileLine(line.text, line.at, source)
      if (!entry) continue
      const key = `${entry.kind}/${entry.namespace}/${entry.name}`
      const list = byObject.get(key)
      if (list) list.push(entry)
      else byObject.set(key, [entry])
    }
    byFilter.set(filterKey, byObject)
  }
  return byObject
}
const parsed = new WeakMap<LogRecord, Map<string, Map<string, ReconcileLine[]>>>()

/** Above this many namespaces the test per line costs more than the parse it saves. */
const MAX_NAMESPACE_FILTER = 8

/** The namespaces whose reconcile lines can be asked for (those of the snapshot's ChainNodes), or undefined for all. */
function namespacesAsked(index: SnapshotIndex): string[] | undefined {
  if (asked.has(index)) return asked.get(index)
  // A ChainNodeSet with no ChainNode yet is asked about too.
  const namespaces = [...new Set([...index.list('ChainNode'), ...index.list('ChainNodeSet')].map((obj) => obj.metadata.namespace ?? ''))].sort()
  const filter = namespaces.length > 0 && namespaces.length <= MAX_NAMESPACE_FILTER && !namespaces.includes('') ? namespaces : undefined
  asked.set(index, filter)
  return filter
}
const asked = new WeakMap<SnapshotIndex, string[] | undefined>()

/** The reconcile lines about one object in the logs of the release that reconciles `node`, oldest first. */
export function reconcileLines(index: SnapshotIndex, node: ChainNode | ChainNodeSet, kind: ReconcileLine['kind'], name: string): readonly ReconcileLine[] {
  return index.once('reconcile lines', node, `${kind}/${name}`, () => gatherLines(index, node, kind, name))
}

function gatherLines(index: SnapshotIndex, node: ChainNode | ChainNodeSet, kind: ReconcileLine['kind'], name: string): ReconcileLine[] {
  const operator = index.operatorFor(node)
  if (!operator) return []
  const key = `${kind}/${node.metadata.namespace}/${name}`
  const lines: ReconcileLine[] = []
  for (const pod of index.operatorPods(operator)) {
    for (const previous of [true, false]) {
      const record = index.logsFor(pod.metadata.namespace, pod.metadata.name, 'manager', previous)
      if (record?.text) for (const line of reconcileLinesOf(index, pod, record).get(key) ?? []) lines.push(line)
    }
  }
  return lines.sort((a, b) => compareText(a.at, b.at))
}

/** What the operator logged about reconciling this node and its ChainNodeSet. */
export function reconcileHistory(index: SnapshotIndex, node: ChainNode): ReconcileHistory {
  return index.once('reconcile history', node, '', () => gatherHistory(index, node))
}

function gatherHistory(index: SnapshotIndex, node: ChainNode): ReconcileHistory {
  const own = reconcileLines(index, node, 'ChainNode', node.metadata.name)
  const set = index.ownerSetOf(node)
  const setLines = set ? reconcileLines(index, node, 'ChainNodeSet', set.metadata.name) : []
  const failures = [...own, ...setLines].filter((line) => line.msg === RECONCILER_ERROR).sort((a, b) => compareText(a.at, b.at))
  const ownFailing = failingRun(own)
  const setFailing = failingRun(setLines)
  const failing = [...ownFailing, ...setFailing].sort((a, b) => compareText(a.at, b.at))
  return {
    failures,
    groups: groupErrors(failures),
    failing,
    latestFailed: failing.length > 0,
    failingSince: failing[0]?.at,
    failingCount: failing.length,
    onlyConflicts: failing.length > 0 && failing.every((line) => isConflict(line.error)),
  }
}

/** The failures of one object's (a ChainNode's or a ChainNodeSet's) own reconciles since the last that went through, oldest first. */
export function failingRunOf(index: SnapshotIndex, obj: ChainNode | ChainNodeSet): readonly ReconcileLine[] {
  const kind = obj.kind === 'ChainNodeSet' ? 'ChainNodeSet' : 'ChainNode'
  return index.once('failing run', obj, '', () => failingRun(reconcileLines(index, obj, kind, obj.metadata.name)))
}

/**
 * The failures since the last reconcile that went through. A reconcile went through when a later one
 * started after it without it logging an error, or when it logged `finishing reconcile`; the last
 * reconcile still running (no error yet, no end) does not clear the failures before it.
 */
function failingRun(lines: readonly ReconcileLine[]): ReconcileLine[] {
  const failedIds = new Set(lines.filter((line) => line.msg === RECONCILER_ERROR).map((line) => line.reconcileID))
  const order: string[] = []
  for (const line of lines) if (order.at(-1) !== line.reconcileID) order.push(line.reconcileID)
  const finished = new Set(lines.filter((line) => line.msg === 'finishing reconcile').map((line) => line.reconcileID))
  let lastGood = -1
  order.forEach((id, i) => {
    if (failedIds.has(id)) return
    if (finished.has(id) || i < order.length - 1) lastGood = i
  })
  const after = new Set(order.slice(lastGood + 1))
  return lines.filter((line) => line.msg === RECONCILER_ERROR && after.has(line.reconcileID))
}

export function groupErrors(failures: readonly ReconcileLine[]): ReconcileErrorGroup[] {
  const groups = new Map<string, ReconcileErrorGroup>()
  for (const line of failures) {
    const error = line.error ?? '(no error text)'
    const key = `${line.kind}/${line.name}/${error}`
    const group = groups.get(key)
    if (group) {
      group.count++
      group.last = line.at
    } else groups.set(key, { kind: line.kind, name: line.name, error, count: 1, first: line.at, last: line.at, source: line.source })
  }
  return [...groups.values()].sort((a, b) => compareText(a.last, b.last))
}

/** The reconcile errors about a node (or its set) whose text matches, one evidence per distinct text. */
export function reconcileErrorEvidence(index: SnapshotIndex, node: ChainNode, pattern: RegExp): (Evidence & { at: string })[] {
  return reconcileHistory(index, node)
    .groups.filter((group) => pattern.test(group.error))
    .map((group) => ({
      kind: 'log' as const,
      source: `Reconciler error on ${group.kind}/${group.name}`,
      text: `${group.error}${group.count > 1 ? ` (x${group.count} since ${group.first})` : ''}`,
      at: group.last,
    }))
}
