import type { SnapshotIndex } from '../../snapshot/index.js'
import type { Evidence } from '../../engine/define-rule.js'
import type { RuleId } from '../../engine/rule-ids.js'
import { compareText } from '../../util/compare.js'
import { VOCABULARY, type VocabularyEntry } from './index.js'
import { failingRunOf, groupErrors, reconcileLines } from '../../analysis/reconcile-log.js'
import { eventEvidence, field } from '../../engine/evidence.js'
import { eventText, eventTime } from '../../snapshot/events.js'
import { type ChainNode, type ChainNodeSet, isKind } from '../../snapshot/kinds.js'

/** An error-level line the operator logs and then goes on: it repeats each reconcile while it holds, so an older one is over. */
const ERROR_LOG_FRESH_MS = 20 * 60_000

/**
 * The operator's Event for an error keeps what controllers.FormatErrorEvent keeps of it (v3.0.0
 * internal/controllers/events.go): the last `:`-separated part of a chain of more than three, without a leading
 * "error " or "failed to ", whitespace collapsed, cut at 256 characters with "...".
 */
export function eventTailOf(error: string): string {
  const parts = error.split(':')
  let tail = parts.length > 3 ? parts.at(-1)!.trim() : error
  tail = tail.replace(/^error /, '').replace(/^failed to /, '')
  return collapse(tail)
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim()

/** Whether an Event's message carries this reconcile error (whole, as FormatErrorEvent shortens it, or cut at 256 characters). */
export function sameFailure(message: string, error: string): boolean {
  const said = collapse(message)
  const full = collapse(error)
  if (full.length > 0 && said.includes(full)) return true
  // As FormatErrorEvent shortens it, or its root cause under a context of the Event's own.
  for (const tail of [eventTailOf(error), collapse(error.split(':').at(-1)!)]) if (tail.length >= 8 && said.includes(tail)) return true
  // Cut at 256 characters: the last words before the "..." are somewhere in the error.
  if (said.endsWith('...') && said.length >= 200) {
    const cut = said.slice(-43, -3)
    return full.includes(cut)
  }
  return false
}

/** One thing the operator said about an object that the vocabulary knows. */
export interface VocabularyHit {
  entry: VocabularyEntry
  /** The pattern's named groups. */
  groups: Record<string, string>
  /** The operator's own text. */
  text: string
  evidence: Evidence
  at?: string
}

/**
 * Everything the operator says about a ChainNode or ChainNodeSet (its Events, the errors its reconciles
 * return now, the error lines they log, its status) that the vocabulary knows, for one rule or all.
 */
export function operatorSaid(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, now: number, rule?: RuleId): VocabularyHit[] {
  const entries = VOCABULARY.filter((entry) => entry.kind === obj.kind && (!rule || entry.rule === rule))
  if (entries.length === 0) return []
  return [...fromEvents(index, obj, entries), ...fromReconciles(index, obj, entries, now), ...fromStatus(obj, entries)]
}

function match(entry: VocabularyEntry, text: string): Record<string, string> | undefined {
  const found = entry.pattern.exec(text)
  if (!found) return undefined
  const groups: Record<string, string> = {}
  for (const [name, value] of Object.entries(found.groups ?? {})) if (value !== undefined) groups[name] = value
  return groups
}

function fromEvents(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, entries: VocabularyEntry[]): VocabularyHit[] {
  const events = index.eventsFor(obj)
  const hits: VocabularyHit[] = []
  for (const event of events) {
    const text = eventText(event)
    const entry = entries.find((e) => e.channel === 'event' && e.reason === event.reason && e.pattern.test(text))
    if (!entry) continue
    const at = eventTime(event)
    // A later Event that says the trouble is over (GenesisImported after GenesisError) clears it.
    const cleared = events.some((later) => later.reason !== undefined && entry.clearedBy?.includes(later.reason) && compareText(eventTime(later), at) > 0)
    if (cleared) continue
    hits.push({ entry, groups: match(entry, text)!, text, evidence: eventEvidence(event), at })
  }
  return hits
}

function fromReconciles(index: SnapshotIndex, obj: ChainNode | ChainNodeSet, entries: VocabularyEntry[], now: number): VocabularyHit[] {
  const hits: VocabularyHit[] = []
  const errors = entries.filter((e) => e.channel === 'reconcile-error')
  if (errors.length > 0)
    for (const group of groupErrors(failingRunOf(index, obj))) {
      const ownKey = ownKeySecretMissing(obj, errors, group.error)
      const entry = ownKey?.entry ?? errors.find((e) => e.pattern.test(group.error))
      if (!entry) continue
      hits.push({
        entry,
        groups: ownKey?.groups ?? match(entry, group.error)!,
        text: group.error,
        evidence: {
          kind: 'log',
          source: `Reconciler error on ${group.kind}/${group.name}`,
          text: `${group.error}${group.count > 1 ? ` (x${group.count} since ${group.first})` : ''}`,
          at: group.last,
        },
        at: group.last,
      })
    }
  const logged = entries.filter((e) => e.channel === 'error-log' || e.channel === 'log')
  if (logged.length === 0) return hits
  const kind = obj.kind === 'ChainNodeSet' ? 'ChainNodeSet' : 'ChainNode'
  const seen = new Map<string, VocabularyHit>()
  for (const line of reconcileLines(index, obj, kind, obj.metadata.name)) {
    if (line.msg === 'Reconciler error' || now - Date.parse(line.at) > ERROR_LOG_FRESH_MS) continue
    const channel = line.level === 'error' ? 'error-log' : line.level === 'info' ? 'log' : undefined
    const entry = channel && logged.find((e) => e.channel === channel && e.pattern.test(line.msg))
    if (!entry) continue
    const text = line.error ? `${line.msg}: ${line.error}` : line.msg
    // The newest of each entry stands for its repeats.
    seen.set(entry.id, { entry, groups: match(entry, line.msg)!, text, evidence: { kind: 'log', source: line.source, text, at: line.at }, at: line.at })
  }
  return [...hits, ...seen.values()]
}

const KEY_SECRET_MISSING = 'reconcile-error/consensus-key-secret-missing'

/**
 * A validator's consensus key Secret may have any name (.spec.validator.privateKeySecret, else <name>-priv-key:
 * v3.0.0 GetPrivKeySecretName); the manager's NotFound for it (`Secret "<name>" not found` from its cache) is that
 * entry whatever the name says.
 */
function ownKeySecretMissing(
  obj: ChainNode | ChainNodeSet,
  errors: VocabularyEntry[],
  error: string,
): { entry: VocabularyEntry; groups: Record<string, string> } | undefined {
  if (!isKind(obj, 'ChainNode') || !obj.spec?.validator) return undefined
  const entry = errors.find((e) => e.id === KEY_SECRET_MISSING)
  const secret = obj.spec.validator.privateKeySecret ?? `${obj.metadata.name}-priv-key`
  const missing = error.endsWith(` "${secret}" not found`) && /(?:^|: )secrets? "[^"]*" not found$/i.test(error)
  return entry && missing ? { entry, groups: { secret } } : undefined
}

/** The status facts the vocabulary reads, as `field = value` lines. */
function statusFacts(obj: ChainNode | ChainNodeSet): [string, unknown][] {
  const nodeStatus = isKind(obj, 'ChainNode') ? obj.status : undefined
  const facts: [string, unknown][] = [
    ['.status.phase', obj.status?.phase],
    ['.status.jailed', nodeStatus?.jailed],
    ['.status.validatorStatus', nodeStatus?.validatorStatus],
    ['.status.dataUsage', nodeStatus?.dataUsage],
  ]
  for (const condition of obj.status?.conditions ?? []) facts.push([`.status.conditions[${condition.type}]`, condition.status])
  return facts.filter(([, value]) => value !== undefined)
}

function fromStatus(obj: ChainNode | ChainNodeSet, entries: VocabularyEntry[]): VocabularyHit[] {
  const hits: VocabularyHit[] = []
  const status = entries.filter((e) => e.channel === 'status')
  for (const [path, value] of statusFacts(obj)) {
    const text = `${path} = ${JSON.stringify(value)}`
    const entry = status.find((e) => e.pattern.test(text))
    if (entry) hits.push({ entry, groups: match(entry, text)!, text, evidence: field(obj, path, value) })
  }
  return hits
}
