import type { SnapshotIndex } from '../snapshot/index.js'
import type { RuleId } from './rule-ids.js'
import type { LogRole } from '../snapshot/node-layout.js'
import type { ObjectRef } from '../snapshot/types.js'
import type { ChainNode, ChainNodeSet, Pod } from '../snapshot/kinds.js'

export type Severity = 'error' | 'warning' | 'info'
export const SEVERITIES: Severity[] = ['error', 'warning', 'info']
export const severityRank = (severity: Severity): number => SEVERITIES.length - SEVERITIES.indexOf(severity)

/** Something a rule matched, with where and when it was seen. */
export interface Evidence {
  kind: 'event' | 'log' | 'field' | 'probe' | 'missing'
  /** Where it came from, e.g. "Event on Pod/x", "log of node-utils", "ConfigMap/x config.toml". */
  source: string
  text: string
  at?: string
}

/** What a rule's check returns: data only; the rule's templates turn it into words. */
export interface RuleHit<Data> {
  subject: ObjectRef
  data: Data
  evidence: Evidence[]
  /** Overrides the rule's default severity, e.g. an intentional restart is info. */
  severity?: Severity
  /**
   * When the trouble began, where the rule knows it better than its earliest evidence: the last block of a
   * stalled chain, a lease's last renewal, the first of a run of failed reconciles. Old log lines kept as
   * context (how a leader took the lease days ago) would otherwise date the finding.
   */
  since?: string
  /** Other nodes the hit holds for, in or out of scope (every holder of one validator key): kept in the finding's alsoFor. */
  alsoFor?: ObjectRef[]
  /**
   * Names the incident the finding belongs to, across nodes, where the rule knows it better than the look of its
   * data: one validator key presented by several nodes is one incident, whatever each node's finding says.
   */
  incident?: string
}

/** What a user can tune for a run (doctor flags); every rule has a default for each. */
export interface RuleSettings {
  /** How long a node may hold a transitional phase before phase-stuck reports it, by phase. */
  phaseTimeoutsMs?: Partial<Record<string, number>>
  /** Missed blocks in the signing window at which validator-missed-blocks warns, and at which it is an error. */
  missedBlocks?: { warning: number; error: number }
}

/** What a rule checks: a ChainNode, or for a rule that `sets`, also a ChainNodeSet that has no ChainNode yet. */
export interface RuleContext<Subject extends ChainNode | ChainNodeSet = ChainNode> {
  index: SnapshotIndex
  node: Subject
  pod: Pod | undefined
  now: number
  settings?: RuleSettings
}

interface RuleParts<Data extends object> {
  id: RuleId
  title: string
  severity: Severity
  /** How the severity varies from finding to finding, after the default (its docs page's header says it). */
  severityNote?: string
  /** The row of the spec's symptom table (or the reference section) this rule implements. */
  specRow: string
  /**
   * Rules whose finding on the same node already explains this one (a gate timeout explains phase Error):
   * when one of them fires, this rule's finding is left out so the root cause stands alone.
   */
  suppressedBy?: readonly RuleId[]
  /**
   * Rules whose findings on the same node this rule's finding explains (a reconcile the operator reports as refused
   * explains the phase the node is stuck in): they are kept, as symptoms inside this finding's incident, never
   * before it. engine/diagnosis.ts links them.
   */
  explains?: readonly RuleId[]
  /** The container logs check() reads (the operator's manager is `operator`); doctor reads no others. */
  logs?: readonly LogRole[]
  summary(data: Data): string
  cause(data: Data): string
  /** The action names the real objects: the node the finding is for, so its commands can be pasted as they are. */
  action(data: Data, on: ActionTarget): string
}

export type Rule<Data extends object = object> = RuleParts<Data> &
  (
    | { sets?: false; check(ctx: RuleContext): RuleHit<Data>[] }
    | {
        /**
         * The rule also checks a ChainNodeSet that has no ChainNode yet (ctx.node is then the set, ctx.pod
         * undefined): a set whose genesis cannot be obtained never gets a node to report on.
         */
        sets: true
        check(ctx: RuleContext<ChainNode | ChainNodeSet>): RuleHit<Data>[]
      }
  )

/** What an action is about: the ChainNode (or set) the finding was found for, and its subject. */
export interface ActionTarget {
  node: ObjectRef
  subject: ObjectRef
}

/** `NAME -n NAMESPACE` of the node, as a command takes it. */
export const nodeArgs = (on: ActionTarget): string => `${on.node.name}${on.node.namespace ? ` -n ${on.node.namespace}` : ''}`

/** Keeps each rule's data type flowing from check() to its templates. */
export function defineRule<Data extends object>(rule: Rule<Data>): Rule<Data> {
  return rule
}

export interface Finding {
  ruleId: RuleId
  severity: Severity
  subject: ObjectRef
  /** The ChainNode the finding was found for (the subject may be its Pod, PVC or operator). */
  node: ObjectRef
  summary: string
  cause: string
  action: string
  evidence: Evidence[]
  data: object
  /** See RuleHit.since. */
  since?: string
  /** RuleHit.incident: the name of the incident across nodes, where the rule gave one. */
  incidentKey?: string
  /**
   * The other nodes it holds for: a finding about a shared subject (the operator's Deployment, Lease or
   * webhook) is kept once, under the first node it was found for, and names the rest here.
   */
  alsoFor?: ObjectRef[]
}

/** Every node a finding holds for: its own, and those that share its subject. */
export function nodesOf(finding: Finding): ObjectRef[] {
  return finding.alsoFor ? [finding.node, ...finding.alsoFor] : [finding.node]
}

/**
 * When a finding's trouble began: what its rule says, else its earliest dated evidence; undefined when nothing is dated.
 * A probe's time is when the node was read, this run: it says the trouble holds now, not since when (a rule that knows
 * the onset from a reading, the last block of a stalled chain, says so in `since`).
 */
export function onsetOf(finding: Finding): string | undefined {
  const dated = (at: string | undefined) => at !== undefined && !Number.isNaN(Date.parse(at))
  if (dated(finding.since)) return finding.since
  let earliest: string | undefined
  for (const { kind, at } of finding.evidence)
    if (kind !== 'probe' && dated(at) && (earliest === undefined || Date.parse(at!) < Date.parse(earliest))) earliest = at
  return earliest
}
