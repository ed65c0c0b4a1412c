import type { Finding, Rule, RuleSettings } from './define-rule.js'
import { severityRank } from './define-rule.js'
import { outranks, type RuleId } from './rule-ids.js'
import { refOf, type SnapshotIndex } from '../snapshot/index.js'
import type { CollectionError, CosmosReading, ObjectRef, SigningReading } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'
import { chainProbeOf, keySearchLimit } from '../snapshot/chain.js'
import { rpcFailureOf, signingSummary, type RpcFailure } from '../snapshot/signing.js'
import { isKind } from '../snapshot/kinds.js'

export interface RuleError {
  ruleId: RuleId
  node: ObjectRef
  message: string
}

export interface NodeResult {
  node: ObjectRef
  phase?: string
  /** The chain the node runs, as the operator wrote it (status.chainID). */
  chainId?: string
  rulesChecked: RuleId[]
  /** What the chain probe measured on the node (or why it could not), when the run took one. */
  chain?: {
    target: string
    ok: boolean
    detail: string
    at: string
    /** Why the RPC gave no /status answer, in a word. */
    reason?: RpcFailure
    /** Validators: what the chain's last commits say about their key. */
    signing?: Pick<
      SigningReading,
      'address' | 'source' | 'window' | 'counted' | 'signed' | 'missed' | 'fromHeight' | 'toHeight' | 'votingPower' | 'inActiveSet'
    >
    /** Validators: where other nodes presenting their key were looked for, when less than the cluster (snapshot/chain.ts keySearchLimit). */
    keySearch?: string
    /** What the chain's Cosmos SDK modules say (slashing window, staking, upgrade plan, proposals), or why it cannot tell. */
    cosmos?: CosmosReading
  }
}

/** A finding left out because a root-cause rule fired on the same node. */
export interface SuppressedFinding {
  ruleId: RuleId
  node: ObjectRef
  by: RuleId
}

export interface Report {
  findings: Finding[]
  suppressed: SuppressedFinding[]
  ruleErrors: RuleError[]
  nodes: NodeResult[]
  collectionErrors: CollectionError[]
}

/**
 * Run every rule against every node of the snapshot. A rule that throws is reported as an error
 * of the tool and never stops the others. Findings about a shared subject (the operator) are kept once.
 */
export function runRules(index: SnapshotIndex, rules: readonly Rule[], now = Date.parse(index.snapshot.collectedAt), settings: RuleSettings = {}): Report {
  const steps = ruleSteps(index, rules, now, settings)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * runRules that hands the event loop back every `sliceMs`: a fleet of thousands takes seconds to check, and serve
 * must answer its scrapes and probes meanwhile (a liveness probe times out after a second).
 */
export async function runRulesYielding(index: SnapshotIndex, rules: readonly Rule[], settings: RuleSettings = {}, sliceMs = 20): Promise<Report> {
  const steps = ruleSteps(index, rules, Date.parse(index.snapshot.collectedAt), settings)
  for (let until = Date.now() + sliceMs; ;) {
    const step = steps.next()
    if (step.done) return step.value
    if (Date.now() < until) continue
    await new Promise((resolve) => setImmediate(resolve))
    until = Date.now() + sliceMs
  }
}

/** The work of runRules, one subject per step. */
function* ruleSteps(index: SnapshotIndex, rules: readonly Rule[], now: number, settings: RuleSettings): Generator<void, Report> {
  const findings = new Map<string, Finding>()
  const ruleErrors: RuleError[] = []
  const nodes: NodeResult[] = []
  const keyLimit = keySearchLimit(index.snapshot)
  for (const node of subjectsOf(index)) {
    const chainNode = isKind(node, 'ChainNode') ? node : undefined
    const pod = chainNode && index.podOf(chainNode)
    const nodeRef = refOf(node)
    for (const rule of rules) {
      // A set with no ChainNode is checked only by the rules that take sets.
      if (!chainNode && !rule.sets) continue
      try {
        const hits = rule.sets ? rule.check({ index, node, pod, now, settings }) : rule.check({ index, node: chainNode!, pod, now, settings })
        for (const hit of hits) {
          const key = `${rule.id}|${hit.subject.kind}/${hit.subject.namespace ?? ''}/${hit.subject.name}`
          const shared = findings.get(key)
          if (shared) {
            addAlsoFor(shared, [nodeRef, ...(hit.alsoFor ?? [])])
            continue
          }
          const finding: Finding = {
            ruleId: rule.id,
            severity: hit.severity ?? rule.severity,
            subject: hit.subject,
            node: nodeRef,
            summary: rule.summary(hit.data),
            cause: rule.cause(hit.data),
            action: rule.action(hit.data, { node: nodeRef, subject: hit.subject }),
            evidence: hit.evidence,
            data: hit.data,
            ...(hit.since ? { since: hit.since } : {}),
            ...(hit.incident !== undefined ? { incidentKey: hit.incident } : {}),
          }
          findings.set(key, finding)
          if (hit.alsoFor) addAlsoFor(finding, hit.alsoFor)
        }
      } catch (error) {
        ruleErrors.push({ ruleId: rule.id, node: nodeRef, message: error instanceof Error ? error.message : String(error) })
      }
    }
    const probe = chainProbeOf(index.snapshot, pod)
    const chain = probe && {
      target: probe.target,
      ok: probe.ok,
      detail: probe.detail,
      at: probe.at,
      ...(probe.chain?.status ? {} : { reason: rpcFailureOf(probe.detail) }),
      ...(probe.chain?.signing ? { signing: signingSummary(probe.chain.signing) } : {}),
      ...(chainNode?.spec?.validator && keyLimit ? { keySearch: keyLimit } : {}),
      ...(probe.chain?.cosmos ? { cosmos: probe.chain.cosmos } : {}),
    }
    const chainId = node.status?.chainID
    nodes.push({
      node: nodeRef,
      phase: node.status?.phase,
      ...(chainId ? { chainId } : {}),
      rulesChecked: rules.filter((rule) => chainNode || rule.sets).map((rule) => rule.id),
      ...(chain ? { chain } : {}),
    })
    yield
  }
  const { kept, suppressed } = applySuppression([...findings.values()], rules)
  return { findings: sortFindings(kept), suppressed, ruleErrors, nodes, collectionErrors: index.snapshot.collectionErrors }
}

/** Name more nodes a finding holds for, each once and never its own node. */
function addAlsoFor(finding: Finding, nodes: readonly ObjectRef[]): void {
  const key = (ref: ObjectRef) => `${ref.kind}/${ref.namespace ?? ''}/${ref.name}`
  const named = new Set([finding.node, ...(finding.alsoFor ?? [])].map(key))
  for (const node of nodes)
    if (!named.has(key(node))) {
      named.add(key(node))
      ;(finding.alsoFor ??= []).push(node)
    }
}

/** Every ChainNode, then every ChainNodeSet that has none yet (its troubles have no node to be reported on). */
function subjectsOf(index: SnapshotIndex) {
  const nodes = index.chainNodes()
  const owners = new Set(nodes.map((node) => index.ownerSetOf(node)).filter((set) => set !== undefined))
  const childless = index
    .list('ChainNodeSet')
    .filter((set) => !owners.has(set))
    .sort((a, b) => compareText(`${a.metadata.namespace}/${a.metadata.name}`, `${b.metadata.namespace}/${b.metadata.name}`))
  return [...nodes, ...childless]
}

/**
 * Leave out what a root-cause rule on the same node already explains. A finding about a shared subject holds for
 * several nodes: it is left out only on the nodes where its suppressor fired, and kept for the rest, so whichever
 * node happened to be checked first (a matter of scope) never decides whether the others see it.
 */
function applySuppression(findings: Finding[], rules: readonly Rule[]): { kept: Finding[]; suppressed: SuppressedFinding[] } {
  // A set, not a search per finding: a fleet has thousands of findings.
  const fired = new Set(findings.map((f) => `${f.ruleId}|${f.node.namespace}/${f.node.name}`))
  for (const f of findings) for (const node of f.alsoFor ?? []) fired.add(`${f.ruleId}|${node.namespace}/${node.name}`)
  const firedOn = (ruleId: RuleId, node: ObjectRef) => fired.has(`${ruleId}|${node.namespace}/${node.name}`)
  const suppressorsOf = new Map(rules.map((r) => [r.id, r.suppressedBy ?? []]))
  const kept: Finding[] = []
  const suppressed: SuppressedFinding[] = []
  for (const finding of findings) {
    const by = (node: ObjectRef) => suppressorsOf.get(finding.ruleId)?.find((id) => firedOn(id, node))
    const holds = [finding.node, ...(finding.alsoFor ?? [])].filter((node) => {
      const suppressor = by(node)
      if (suppressor) suppressed.push({ ruleId: finding.ruleId, node, by: suppressor })
      return !suppressor
    })
    if (holds.length === 0) continue
    if (holds.length === 1 + (finding.alsoFor?.length ?? 0)) kept.push(finding)
    else {
      const rest: Finding = { ...finding, node: holds[0] }
      delete rest.alsoFor
      kept.push(holds.length > 1 ? { ...rest, alsoFor: holds.slice(1) } : rest)
    }
  }
  return { kept, suppressed }
}

export function sortFindings(findings: Finding[]): Finding[] {
  const key = (f: Finding) => `${f.node.namespace}/${f.node.name}|${f.ruleId}|${f.subject.kind}/${f.subject.name}`
  const rank = (f: Finding) => (outranks(f.ruleId) ? 1 : 0)
  return [...findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity) || rank(b) - rank(a) || compareText(key(a), key(b)))
}
