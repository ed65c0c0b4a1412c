import type { ClusterReport } from '../engine/doctor-result.js'
import { screenRows, type Incident, type NodeDiagnosis, type ScreenRow } from '../engine/diagnosis.js'
import type { FindingGroup } from '../engine/group-findings.js'
import type { Finding } from '../engine/define-rule.js'
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

export const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`
const nameOf = (ref: ObjectRef) => `${ref.namespace}/${ref.name}`
/** A ChainNodeSet with no ChainNode is reported by its own kind, never as a ChainNode. */
export const kindOf = (ref: ObjectRef) => (ref.kind === 'ChainNodeSet' ? 'ChainNodeSet' : 'ChainNode')

/** "a, b, c and 1,995 more": a list of thousands of nodes stays one line. */
export function nodeList(nodes: ObjectRef[], shown = NODES_LISTED): string {
  const names = nodes.slice(0, shown).map((n) => visible(nameOf(n)))
  const rest = nodes.length - names.length
  return rest > 0 ? `${names.join(', ')} and ${rest.toLocaleString('en-US')} more` : names.join(', ')
}

/** "sc-x/val-1" for one node, "28 nodes" for more; "ChainNodeSet sc-x/set" for a set. */
function where(nodes: ObjectRef[]): string {
  if (nodes.length !== 1) return plural(nodes.length, 'node')
  return `${nodes[0].kind === 'ChainNodeSet' ? 'ChainNodeSet ' : ''}${visible(nameOf(nodes[0]))}`
}

/**
 * The first screen of a fleet: one line per incident (severity, cause, how many nodes, since when), worst first,
 * then the nodes that could not be measured and the healthy ones. A line is whole: the name of a lone node is
 * added only where it fits the width.
 */
export function firstScreen(cluster: ClusterReport, palette: Palette, look: Look): string[] {
  const { incidents, nodes } = cluster.diagnosis
  const width = proseWidth(look.width)
  const states = [
    ...stateLine(
      'NOT MEASURED:',
      nodes.filter((n) => n.state === 'not-measured'),
      palette,
      width,
      'warning',
      true,
    ),
    ...stateLine(
      'HEALTHY:',
      nodes.filter((n) => n.state === 'ok'),
      palette,
      width,
      'ok',
      false,
    ),
  ]
  const rows = screenRows(incidents, FIRST_SCREEN_LINES - states.length)
  const causeOf = (row: ScreenRow) => `${row.incidents[0].cause.ruleId}${row.incidents.length > 1 ? ` (${row.incidents.length} incidents)` : ''}`
  const causeWidth = Math.max(0, ...rows.map((row) => causeOf(row).length))
  const countWidth = Math.max(0, ...rows.map((row) => plural(row.nodes, 'node').length))
  const sinceOf = (row: ScreenRow) => (row.began ? `  since ${absoluteTime(row.began, look.utc)}` : '')
  // An incident nothing dates (a reading says it holds now, not since when) keeps the names in their column.
  const sinceWidth = Math.max(0, ...rows.map((row) => sinceOf(row).length))
  const out = rows.map((row) => {
    const { severity } = row.incidents[0]
    const label = severity.toUpperCase().padEnd(9)
    const since = sinceOf(row).padEnd(sinceWidth)
    const head = `${causeOf(row).padEnd(causeWidth)}  ${plural(row.nodes, 'node').padEnd(countWidth)}${since}`
    const lone = row.incidents.length === 1 && row.nodes === 1 ? `  ${where(row.incidents[0].nodes)}` : ''
    const text = label.length + head.length + lone.length <= width ? head + lone : head
    return `${palette.paint(severity, label)}${text.trimEnd()}`
  })
  return [...out, ...states]
}

/** How many lines the first screen may take: an on-call engineer's terminal before anything scrolls away. */
export const FIRST_SCREEN_LINES = 25

/**
 * One line of nodes in a state: how many, and as many names as fit the width ("and N more"); why they were not
 * measured is told under "Measured on the nodes". A line that cannot hold even one name wraps, never cuts.
 */
function stateLine(title: string, members: NodeDiagnosis[], palette: Palette, width: number, meaning: 'warning' | 'ok', skipEmpty: boolean): string[] {
  if (members.length === 0 && skipEmpty) return []
  const sets = members.filter((m) => m.node.kind === 'ChainNodeSet').length
  const counted = [plural(members.length - sets, 'node'), ...(sets ? [plural(sets, 'ChainNodeSet')] : [])].join(' and ')
  const indent = Math.max(9, title.length + 1)
  const refs = members.map((m) => m.node)
  let shown = Math.min(refs.length, NODES_LISTED)
  while (shown > 1 && indent + `${counted}: ${nodeList(refs, shown)}`.length > width) shown--
  const text = `${counted}${refs.length ? `: ${nodeList(refs, shown)}` : ''}`
  const lines = wrap(text, width, ' '.repeat(indent))
  lines[0] = `${palette.paint(meaning, title.padEnd(indent))}${lines[0].slice(indent)}`
  return lines
}

/** A group of look-alike findings as one block: the cause once, with how many nodes, which chain and since when. */
export function renderGroup(group: FindingGroup, palette: Palette, renderFinding: FindingRenderer, look: Look = { utc: true }): string[] {
  if (group.nodes.length === 1) return renderFinding(group.example, palette, look)
  const { width, utc } = look
  const prose = proseWidth(width)
  const f = group.example
  const place = [
    plural(group.nodes.length, 'node'),
    group.chainId ? `chain ${group.chainId}` : undefined,
    group.since ? `since ${absoluteTime(group.since, utc)}` : undefined,
  ]
    .filter(Boolean)
    .join(', ')
  const headline = headlineOf(f, visible(place), visible(timesIn(f.summary, utc)), palette, prose)
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

/**
 * `  SEVERITY rule  place: summary`, wrapped within the width; when the head alone leaves too little room (a long
 * rule id and place at 80 columns), the summary starts on the next line instead of pushing the first past the width.
 */
export function headlineOf(f: Finding, place: string, summary: string, palette: Palette, width: number): string[] {
  const severity = f.severity.toUpperCase().padEnd(7)
  const plainPrefix = `  ${severity} ${f.ruleId}  ${place}: `
  const long = plainPrefix.length > width - 20
  const lines = long
    ? // The prefix is kept as it is (wrap would fold its padding), so the painting below finds the severity and rule where it cuts.
      [...wrap(`${f.ruleId}  ${place}:`, width, `  ${severity} `, '    '), ...wrap(summary, width, '    ')]
    : wrap(summary, width, plainPrefix, '    ')
  // Painted after wrapping, so escape codes do not count towards the width.
  const plainHead = `  ${severity} ${f.ruleId}`
  lines[0] = `  ${palette.paint(f.severity, severity)} ${palette.paint('rule', f.ruleId)}${lines[0].slice(plainHead.length)}`
  return lines
}

export type FindingRenderer = (f: Finding, palette: Palette, look?: Look) => string[]

/** A symptom: what it is, on which nodes, and which incident explains it; its own action would repeat the cause's. */
function renderSymptom(group: FindingGroup, incident: Incident, palette: Palette, look: Look): string[] {
  const prose = proseWidth(look.width)
  const f = group.example
  const place = group.nodes.length === 1 ? visible(`${f.subject.kind}/${f.subject.name}`) : plural(group.nodes.length, 'node')
  const headline = headlineOf(f, place, visible(timesIn(f.summary, look.utc)), palette, prose)
  const cause = incident.cause
  const by = `${cause.ruleId} ${cause.nodes.length === 1 ? `on ${visible(nameOf(cause.nodes[0]))}` : `on ${plural(cause.nodes.length, 'node')}`} (above): fix that first`
  return [
    ...headline,
    ...(group.nodes.length > 1 ? wrap(nodeList(group.nodes), prose, '    Nodes:    ', ' '.repeat(14)) : []),
    ...wrap(by, prose, '    Explained by: ', ' '.repeat(18)),
    `    Docs:     chainnode rules explain ${f.ruleId}`,
    ...(f.evidence.length ? [group.nodes.length > 1 ? `    Evidence (from ${visible(nameOf(f.node))}):` : '    Evidence:'] : []),
    ...presentEvidence(f.evidence).map((line) => evidenceText(line, '      ', look.width, { paintSource: (s) => palette.paint('muted', s), utc: look.utc })),
  ]
}

/**
 * The incidents in order, each as a block: its cause, then the symptoms it explains. A node alone in consecutive
 * incidents shares its heading, and its lead-up (only for an incident of one node) closes them.
 */
export function incidentBlocks(
  cluster: ClusterReport,
  palette: Palette,
  renderFinding: FindingRenderer,
  leadUps: ReadonlyMap<string, TimelineEntry[]> | undefined,
  look: Look,
): string[] {
  const out: string[] = []
  const incidents = cluster.diagnosis.incidents
  const loneNode = (incident: Incident | undefined) => (incident?.nodes.length === 1 ? nameOf(incident.nodes[0]) : undefined)
  const ledUp = new Set<string>()
  incidents.forEach((incident, i) => {
    const lone = loneNode(incident)
    const sameAsBefore = lone !== undefined && lone === loneNode(incidents[i - 1])
    const heading = lone !== undefined ? `${kindOf(incident.nodes[0])} ${visible(lone)}` : `${plural(incident.nodes.length, 'ChainNode')} with one cause`
    if (!sameAsBefore) out.push(palette.paint('subject', heading))
    out.push(...renderGroup(incident.cause, palette, renderFinding, look), '')
    for (const symptom of incident.symptoms) out.push(...renderSymptom(symptom, incident, palette, look), '')
    if (lone === undefined || lone === loneNode(incidents[i + 1]) || ledUp.has(lone)) return
    ledUp.add(lone)
    out.push(...renderLeadUp(lone, leadUps?.get(lone), cluster.collectedAt, palette, look))
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
