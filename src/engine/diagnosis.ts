import { nodesOf, severityRank, type Finding, type Rule, type Severity } from './define-rule.js'
import { groupByCause, type FindingGroup } from './group-findings.js'
import type { Report, NodeResult } from './run-rules.js'
import { outranks, type RuleId } from './rule-ids.js'
import type { ObjectRef } from '../snapshot/types.js'
import { compareText } from '../util/compare.js'

/**
 * One root cause and what it explains: the findings of the cause (look-alike findings of several nodes are one
 * cause: a halted chain, the operator's lost leader), the findings it explains (symptoms, e.g. the phase a node
 * is stuck in because the operator's reconcile is refused), every node they touch, and when it began.
 */
export interface Incident {
  /** The key of its cause's group (`rule:hash`): stable between runs of the same state, short enough to filter JSON by. */
  id: string
  /** The worst of its cause and its symptoms. */
  severity: Severity
  cause: FindingGroup
  /** Findings the cause explains, one group per look-alike symptom, worst first. */
  symptoms: FindingGroup[]
  /** Every node the cause and its symptoms touch, in report order. */
  nodes: ObjectRef[]
  /** The earliest onset of its cause or a symptom (onsetOf); undefined when nothing is dated. */
  began?: string
}

/**
 * A node's answer: the worst severity of the incidents touching it; "not-measured" when nothing is wrong that
 * was seen but something doctor needed could not be read (the chain's RPC gave no answer, a rule failed); "ok"
 * only when everything was measured and nothing is wrong.
 */
export type NodeState = Severity | 'not-measured' | 'ok'

export interface NodeDiagnosis {
  node: ObjectRef
  state: NodeState
  /** The incidents touching the node, in incident order. */
  incidents: string[]
  /** What could not be measured on the node, in words (also when the node has findings). */
  notMeasured?: string
}

/** One kind of failed read (a reason and its message) with what could not be read. */
export interface UnreadKind {
  reason: string
  message: string
  what: string[]
}

/** One kind of failure of the chain probe, with the nodes it happened on: "Measured on the nodes" reads one line per kind. */
export interface ProbeFailureKind {
  /** The failure folded to its reason, whole: "/status on 26657: forward not found". */
  problem: string
  nodes: ObjectRef[]
}

export interface Diagnosis {
  /** Worst first, then the most nodes, then the earliest; a symptom is always inside its cause's incident. */
  incidents: Incident[]
  /** One per node of the report (ChainNodes, then ChainNodeSets with no ChainNode), in report order. */
  nodes: NodeDiagnosis[]
  /** Findings by severity (each finding once, however many nodes it holds for). */
  findings: Record<Severity, number>
  /** Incidents by severity. */
  incidentCounts: Record<Severity, number>
  /** Nodes by state, ChainNodes and ChainNodeSets counted apart. */
  states: { chainNodes: Record<NodeState, number>; chainNodeSets: Record<NodeState, number> }
  /** The worst state of any node, the report's one word (JSON `worst`, the text's last line, the exit code). */
  worst: NodeState
  /** The chain probe: nodes that answered, and those that did not by kind of failure (most nodes first). */
  probe: { answered: ObjectRef[]; failures: ProbeFailureKind[] }
  /** Reads that failed, folded by reason and message (46 logs a bundle lacks read as one line), most reads first. */
  unread: UnreadKind[]
  /** For each finding: its incident and whether it is the cause or a symptom there. */
  roleOf: Map<Finding, { incident: Incident; role: 'cause' | 'symptom' }>
}

const nodeKey = (ref: ObjectRef) => `${ref.namespace ?? ''}/${ref.name}`
const STATE_ORDER: NodeState[] = ['error', 'warning', 'info', 'not-measured', 'ok']
const zeroStates = (): Record<NodeState, number> => ({ error: 0, warning: 0, info: 0, 'not-measured': 0, ok: 0 })
const worse = (a: NodeState, b: NodeState): NodeState => (STATE_ORDER.indexOf(a) <= STATE_ORDER.indexOf(b) ? a : b)

/** Which rules' findings on the same node each rule explains (`explains` in its metadata). */
export type ExplainLinks = ReadonlyMap<RuleId, ReadonlySet<RuleId>>

export function explainLinksOf(rules: readonly Pick<Rule, 'id' | 'explains'>[]): ExplainLinks {
  return new Map(rules.filter((rule) => rule.explains?.length).map((rule) => [rule.id, new Set(rule.explains)]))
}

/**
 * The diagnosis of one report, computed once after the rules ran: findings linked into incidents, ordered, and
 * each node's state. Renderers word and lay it out; they neither group nor count.
 */
export function diagnosisOf(report: Report, links: ExplainLinks): Diagnosis {
  const explainer = explainers(report.findings, links)
  const rootOf = (finding: Finding): Finding => {
    const seen = new Set<Finding>([finding])
    let at = finding
    for (let next = explainer.get(at); next && !seen.has(next); next = explainer.get(at)) {
      seen.add(next)
      at = next
    }
    return at
  }
  const roots = report.findings.filter((f) => rootOf(f) === f)
  const chainOf = new Map(report.nodes.map((n) => [nodeKey(n.node), n.chainId]))
  const incidents = groupByCause(roots, chainOf).map((cause): Incident => ({
    id: cause.key,
    severity: cause.severity,
    cause,
    symptoms: [],
    nodes: [],
    began: cause.since,
  }))
  const incidentOfRoot = new Map<Finding, Incident>()
  for (const incident of incidents) for (const f of incident.cause.findings) incidentOfRoot.set(f, incident)
  const symptomsOf = new Map<Incident, Finding[]>()
  for (const f of report.findings) {
    const root = rootOf(f)
    if (root === f) continue
    const incident = incidentOfRoot.get(root)!
    symptomsOf.set(incident, [...(symptomsOf.get(incident) ?? []), f])
  }
  const roleOf: Diagnosis['roleOf'] = new Map()
  for (const incident of incidents) {
    incident.symptoms = groupByCause(symptomsOf.get(incident) ?? [], chainOf)
    const parts = [incident.cause, ...incident.symptoms]
    const nodes = new Map<string, ObjectRef>()
    for (const part of parts) {
      for (const node of part.nodes) if (!nodes.has(nodeKey(node))) nodes.set(nodeKey(node), node)
      if (severityRank(part.severity) > severityRank(incident.severity)) incident.severity = part.severity
      if (part.since && (!incident.began || Date.parse(part.since) < Date.parse(incident.began))) incident.began = part.since
    }
    incident.nodes = [...nodes.values()]
    for (const f of incident.cause.findings) roleOf.set(f, { incident, role: 'cause' })
    for (const part of incident.symptoms) for (const f of part.findings) roleOf.set(f, { incident, role: 'symptom' })
  }
  incidents.sort(incidentOrder)
  return { incidents, roleOf, ...nodeStates(report, incidents) }
}

/** Worst first; the outranking cause first within its severity; then the most nodes; then the earliest; then by name. */
export function incidentOrder(a: Incident, b: Incident): number {
  const rank = (i: Incident) => (outranks(i.cause.ruleId) ? 1 : 0)
  const began = (i: Incident) => (i.began ? Date.parse(i.began) : Number.POSITIVE_INFINITY)
  return (
    severityRank(b.severity) - severityRank(a.severity) ||
    rank(b) - rank(a) ||
    b.nodes.length - a.nodes.length ||
    began(a) - began(b) ||
    compareText(`${a.cause.ruleId}|${nodeKey(a.nodes[0])}`, `${b.cause.ruleId}|${nodeKey(b.nodes[0])}`) ||
    compareText(a.id, b.id)
  )
}

/**
 * For each finding, the finding that explains it: one on the same node whose rule `explains` this rule (the worst
 * such, in report order). A finding about a shared subject is explained only when every node it holds for is.
 */
function explainers(findings: Finding[], links: ExplainLinks): Map<Finding, Finding> {
  const onNode = new Map<string, Finding[]>()
  for (const f of findings) for (const node of nodesOf(f)) onNode.set(nodeKey(node), [...(onNode.get(nodeKey(node)) ?? []), f])
  const out = new Map<Finding, Finding>()
  for (const f of findings) {
    // The most specific explainer first: one about this node (a refused reconcile) before one shared by the fleet.
    const explaining = (node: ObjectRef) =>
      (onNode.get(nodeKey(node)) ?? []).filter((c) => c !== f && links.get(c.ruleId)?.has(f.ruleId)).sort((a, b) => nodesOf(a).length - nodesOf(b).length)[0]
    const candidates = nodesOf(f).map(explaining)
    if (candidates.every((c) => c !== undefined)) out.set(f, candidates[0]!)
  }
  return out
}

/** Each node's state, the counts by state, severity and incident, and the chain probe folded by kind of failure. */
function nodeStates(report: Report, incidents: Incident[]): Omit<Diagnosis, 'incidents' | 'roleOf'> {
  const touching = new Map<string, Incident[]>()
  for (const incident of incidents) for (const node of incident.nodes) touching.set(nodeKey(node), [...(touching.get(nodeKey(node)) ?? []), incident])
  const ruleFailures = new Map<string, string[]>()
  for (const e of report.ruleErrors) ruleFailures.set(nodeKey(e.node), [...(ruleFailures.get(nodeKey(e.node)) ?? []), e.ruleId])
  const states = { chainNodes: zeroStates(), chainNodeSets: zeroStates() }
  let worst: NodeState = 'ok'
  const nodes = report.nodes.map((result): NodeDiagnosis => {
    const mine = touching.get(nodeKey(result.node)) ?? []
    const notMeasured = notMeasuredOf(result, ruleFailures.get(nodeKey(result.node)))
    let state: NodeState = notMeasured ? 'not-measured' : 'ok'
    for (const incident of mine) state = worse(state, incident.severity)
    ;(result.node.kind === 'ChainNodeSet' ? states.chainNodeSets : states.chainNodes)[state]++
    worst = worse(worst, state)
    return { node: result.node, state, incidents: mine.map((i) => i.id), ...(notMeasured ? { notMeasured } : {}) }
  })
  const findings: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  for (const f of report.findings) findings[f.severity]++
  const incidentCounts: Record<Severity, number> = { error: 0, warning: 0, info: 0 }
  for (const incident of incidents) incidentCounts[incident.severity]++
  return { nodes, findings, incidentCounts, states, worst, probe: probeFolded(report.nodes), unread: unreadFolded(report) }
}

function unreadFolded(report: Report): UnreadKind[] {
  const byKind = new Map<string, UnreadKind>()
  for (const e of report.collectionErrors) {
    const key = `${e.reason}\u0000${e.message}`
    const kind = byKind.get(key) ?? { reason: e.reason, message: e.message, what: [] }
    kind.what.push(e.what)
    byKind.set(key, kind)
  }
  return [...byKind.values()].sort((a, b) => b.what.length - a.what.length || compareText(a.reason, b.reason) || compareText(a.message, b.message))
}

/** What doctor needed and could not read on the node: the chain's RPC, a rule that failed. */
function notMeasuredOf(result: NodeResult, failedRules: string[] | undefined): string | undefined {
  const reasons: string[] = []
  if (result.chain && !result.chain.ok) reasons.push(`chain RPC gave no answer: ${problemOf(result.chain.detail, result.node)}`)
  if (failedRules?.length) reasons.push(`rule${failedRules.length === 1 ? '' : 's'} ${failedRules.join(', ')} failed`)
  return reasons.length ? reasons.join('; ') : undefined
}

/**
 * A probe failure (a port-forward's long Go error chain) as its kind: what was read and the end of the chain,
 * which says what happened. Whole, never cut; the same failure on many nodes reads the same.
 */
export function problemOf(detail: string, node?: ObjectRef): string {
  // The node's own name is not part of the kind of failure: "in pod ns/x-0" reads the same on every node.
  const named = node ? detail.split(`${node.namespace}/${node.name}`).join('NODE').split(` pod "${node.name}"`).join(' pod "NODE"') : detail
  const oneLine = named.replace(/\s+/g, ' ').trim()
  const colon = oneLine.indexOf(': ')
  const what = colon > 0 && colon < 40 ? oneLine.slice(0, colon) : ''
  const rest = what ? oneLine.slice(colon + 2) : oneLine
  const last = rest.split(': ').at(-1) ?? rest
  return what ? `${what}: ${last}` : last
}

function probeFolded(results: NodeResult[]): Diagnosis['probe'] {
  const answered: ObjectRef[] = []
  const byProblem = new Map<string, ObjectRef[]>()
  for (const { node, chain } of results) {
    if (!chain) continue
    if (chain.ok) answered.push(node)
    else byProblem.set(problemOf(chain.detail, node), [...(byProblem.get(problemOf(chain.detail, node)) ?? []), node])
  }
  const failures = [...byProblem]
    .map(([problem, nodes]) => ({ problem, nodes }))
    .sort((a, b) => b.nodes.length - a.nodes.length || compareText(a.problem, b.problem))
  return { answered, failures }
}

/** One line of the first screen: an incident, or where the screen is short, several incidents of one rule and severity. */
export interface ScreenRow {
  incidents: Incident[]
  nodes: number
  began?: string
}

/**
 * The incidents as at most `room` rows, in incident order: one row per incident while they fit; beyond that the
 * incidents of one rule and severity share a row, the least severe first, so the screen still names every cause.
 */
export function screenRows(incidents: Incident[], room: number): ScreenRow[] {
  let rows = incidents.map((incident) => [incident])
  const keyOf = (row: Incident[]) => `${row[0].severity}|${row[0].cause.ruleId}`
  while (rows.length > room) {
    const last = [...rows].reverse().find((row) => rows.filter((other) => keyOf(other) === keyOf(row)).length > 1)
    if (!last) break
    const key = keyOf(last)
    const first = rows.findIndex((row) => keyOf(row) === key)
    const merged = rows.filter((row) => keyOf(row) === key).flat()
    rows = rows.flatMap((row, i) => (i === first ? [merged] : keyOf(row) === key ? [] : [row]))
  }
  return rows.map((row) => {
    const began = row
      .map((i) => i.began)
      .filter((at): at is string => at !== undefined)
      .sort((a, b) => Date.parse(a) - Date.parse(b))[0]
    return { incidents: row, nodes: new Set(row.flatMap((i) => i.nodes.map(nodeKey))).size, ...(began ? { began } : {}) }
  })
}
