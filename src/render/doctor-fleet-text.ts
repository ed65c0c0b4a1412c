import type { ClusterReport } from '../engine/doctor-result.js'
import { worstSeverity } from '../engine/doctor-result.js'
import type { FindingGroup } from '../engine/group-findings.js'
import { SEVERITIES, type Severity } from '../engine/define-rule.js'
import type { ObjectRef } from '../snapshot/types.js'
import type { Palette } from './palette.js'
import type { TimelineEntry } from '../timeline/types.js'
import { renderLeadUp } from './doctor-lead-up.js'
import { evidenceText, presentEvidence } from './evidence.js'
import { absoluteTime, timesIn } from './timeline-time.js'
import type { Look } from './look.js'
import { visible } from './visible.js'
import { proseWidth, wrap } from './width.js'

/** Names shown in a one-line node list; the JSON output lists every node. */
export const NODES_LISTED = 8

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
const nameOf = (ref: ObjectRef) => `${ref.namespace}/${ref.name}`

/** "a, b, c and 1,995 more": a list of thousands of nodes stays one line. */
export function nodeList(nodes: ObjectRef[], shown = NODES_LISTED): string {
  const names = nodes.slice(0, shown).map((n) => visible(nameOf(n)))
  const rest = nodes.length - names.length
  return rest > 0 ? `${names.join(', ')} and ${rest.toLocaleString('en-US')} more` : names.join(', ')
}

/**
 * The head of a fleet report: one line per severity (how many nodes, which causes), then the healthy
 * nodes on one line, so 5,000 nodes read in a handful of lines.
 */
export function fleetSummary(cluster: ClusterReport, groups: FindingGroup[], palette: Palette, width?: number): string[] {
  const out: string[] = []
  for (const severity of SEVERITIES) {
    const mine = groups.filter((g) => g.severity === severity)
    if (mine.length === 0) continue
    const nodes = new Set(mine.flatMap((g) => g.nodes.map(nameOf))).size
    // One name per rule: a rule with several causes (a halted chain, a node without peers) is listed once, with all its nodes.
    const nodesByRule = new Map<string, Set<string>>()
    for (const g of mine) {
      const names = nodesByRule.get(g.ruleId) ?? new Set<string>()
      for (const n of g.nodes) names.add(nameOf(n))
      nodesByRule.set(g.ruleId, names)
    }
    const causes = [...nodesByRule].map(([ruleId, names]) => `${ruleId} (${names.size.toLocaleString('en-US')})`).join(', ')
    // Wrapped, never cut: the causes are the first thing an on-call engineer reads.
    const lines = wrap(`${plural(nodes, 'node')}, ${plural(mine.length, 'cause')}: ${visible(causes)}`, proseWidth(width), ' '.repeat(9))
    lines[0] = `${palette.paint(severity, `${severity.toUpperCase()}:`.padEnd(9))}${lines[0].slice(9)}`
    out.push(...lines)
  }
  const healthy = cluster.report.nodes.filter((n) => worstSeverity(cluster.report, n.node.namespace, n.node.name) === 'ok').map((n) => n.node)
  const label = palette.paint('ok', 'HEALTHY:'.padEnd(9))
  out.push(`${label}${plural(healthy.length, 'node')}${healthy.length ? `: ${nodeList(healthy)}` : ''}`)
  return out
}

/** A group of look-alike findings as one block: the cause once, with how many nodes, which chain and since when. */
export function renderGroup(
  group: FindingGroup,
  palette: Palette,
  renderFinding: (f: FindingGroup['example'], palette: Palette, look?: Look) => string[],
  look: Look = { utc: true },
): string[] {
  if (group.nodes.length === 1) return renderFinding(group.example, palette, look)
  const { width, utc } = look
  const prose = proseWidth(width)
  const f = group.example
  const where = [
    plural(group.nodes.length, 'node'),
    group.chainId ? `chain ${group.chainId}` : undefined,
    group.since ? `since ${absoluteTime(group.since, utc)}` : undefined,
  ]
    .filter(Boolean)
    .join(', ')
  const plainPrefix = `  ${f.severity.toUpperCase().padEnd(7)} ${f.ruleId}  ${where}: `
  const headline = wrap(visible(timesIn(f.summary, utc)), prose, visible(plainPrefix), '    ')
  headline[0] = `  ${palette.paint(f.severity, f.severity.toUpperCase().padEnd(7))} ${palette.paint('rule', f.ruleId)}  ${visible(where)}: ${headline[0].slice(visible(plainPrefix).length)}`
  return [
    ...headline,
    ...wrap(nodeList(group.nodes), prose, '    Nodes:    ', ' '.repeat(14)),
    ...wrap(visible(timesIn(f.cause, utc)), prose, '    Cause:    ', ' '.repeat(14)),
    ...wrap(visible(timesIn(f.action, utc)), prose, '    Action:   ', ' '.repeat(14)),
    `    Docs:     chainnode rules explain ${f.ruleId}`,
    ...(f.evidence.length ? [`    Evidence (from ${visible(nameOf(f.node))}, one of ${group.nodes.length.toLocaleString('en-US')}):`] : []),
    ...presentEvidence(f.evidence).map((line) => evidenceText(line, '      ', width, { paintSource: (s) => palette.paint('muted', s), utc })),
  ]
}

/** Findings of a fleet, one block per cause, worst first; the lead-up is the example node's. */
export function fleetFindings(
  cluster: ClusterReport,
  groups: FindingGroup[],
  palette: Palette,
  renderFinding: (f: FindingGroup['example'], palette: Palette, look?: Look) => string[],
  leadUps?: ReadonlyMap<string, TimelineEntry[]>,
  look: Look = { utc: true },
): string[] {
  const out: string[] = []
  const order = (s: Severity) => SEVERITIES.indexOf(s)
  const ledUp = new Set<string>()
  // Worst first, then the cause that touches most nodes: an operator that lost its leader (12 nodes) before one image pull.
  const sorted = [...groups].sort((a, b) => order(a.severity) - order(b.severity) || b.nodes.length - a.nodes.length)
  // A node alone in a group: consecutive groups of the same node share its heading and lead-up.
  const loneNode = (group: FindingGroup | undefined) => (group?.nodes.length === 1 ? nameOf(group.nodes[0]) : undefined)
  sorted.forEach((group, i) => {
    const lone = loneNode(group)
    const sameAsBefore = lone !== undefined && lone === loneNode(sorted[i - 1])
    const heading = lone !== undefined ? `ChainNode ${visible(lone)}` : `${plural(group.nodes.length, 'ChainNode')} with one cause`
    out.push(...(sameAsBefore ? [] : [palette.paint('subject', heading)]), ...renderGroup(group, palette, renderFinding, look), '')
    if (lone !== undefined && lone === loneNode(sorted[i + 1])) return
    // A node stands for several groups at once (a halt and its operator): its lead-up is told once.
    const key = nameOf(group.example.node)
    if (!ledUp.has(key)) out.push(...renderLeadUp(key, leadUps?.get(key), cluster.collectedAt, palette, look))
    ledUp.add(key)
  })
  return out
}

/** When the logs of look-alike nodes were read for a sample of them: say so, since their evidence comes from that sample. */
export function sampleNote(cluster: ClusterReport, palette: Palette, width?: number): string[] {
  const sample = cluster.logSample
  if (!sample || sample.skipped === 0) return []
  const text = `Logs of ${plural(sample.skipped, 'node')} were not read: they look like ${plural(sample.read, 'sampled node')} whose logs stand for theirs (--log-sample ${sample.perGroup}).`
  return wrap(text, proseWidth(width), '').map((line) => palette.paint('muted', line))
}
