import type { ClusterReport, DoctorResult } from '../engine/doctor-result.js'
import type { NodeResult } from '../engine/run-rules.js'
import { countBySeverity } from '../engine/doctor-result.js'
import type { Finding } from '../engine/define-rule.js'
import type { Palette } from './palette.js'
import { visible } from './visible.js'
import { foldProblem } from '../snapshot/signing.js'
import { evidenceText, presentEvidence } from './evidence.js'
import { absoluteTime, timesIn } from './timeline-time.js'
import { proseWidth, wrap } from './width.js'
import type { TimelineEntry } from '../timeline/types.js'
import { renderLeadUp } from './doctor-lead-up.js'
import type { Look } from './look.js'
import { groupFindings } from '../engine/group-findings.js'
import { fleetFindings, fleetSummary, sampleNote } from './doctor-fleet-text.js'

export interface DoctorTextOptions {
  /** The list of rules checked is noise on a normal run; --debug shows it. */
  debug?: boolean
  /** Per node (namespace/name), the timeline entries leading up to its worst finding. */
  leadUps?: ReadonlyMap<string, TimelineEntry[]>
  /** The terminal's width; undefined when piped: prose then wraps at 120 and nothing is cut. */
  width?: number
  /** Times in UTC (--utc); otherwise in the local zone, as kubectl shows them. Default: UTC. */
  utc?: boolean
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export function renderDoctorText(result: DoctorResult, palette: Palette, options: DoctorTextOptions = {}): string {
  const out: string[] = []
  const fleet = result.clusters.length > 1 || result.clusters.some((c) => c.report.nodes.length > 1)
  for (const cluster of result.clusters) {
    const unread = cluster.report.nodes.length === 0 ? cluster.report.collectionErrors[0] : undefined
    if (result.clusters.length > 1 && unread) {
      // A cluster that could not be read at all: one line, and the other clusters' reports follow.
      out.push(palette.paint('warning', `Cluster ${visible(cluster.context)}: not read (${visible(unread.reason)}): ${visible(unread.message)}`), '')
      continue
    }
    if (result.clusters.length > 1) out.push(palette.paint('heading', `Cluster ${visible(cluster.context)} (${visible(cluster.server)})`), '')
    const look = { width: options.width, utc: options.utc ?? true }
    if (fleet && cluster.report.nodes.length > 0) out.push(...renderFleetCluster(cluster, palette, look, options.leadUps))
    else out.push(...details(cluster, palette, look, options.leadUps))
    out.push(...readProblems(cluster, palette))
  }
  const measured = measuredLines(result, palette)
  if (measured.length) out.push(palette.paint('heading', 'Measured on the nodes'), ...measured, '')
  const counts = countBySeverity(result)
  const nodes = result.clusters.reduce((sum, c) => sum + c.report.nodes.length, 0)
  const found = counts.error + counts.warning + counts.info
  out.push(
    found === 0
      ? palette.paint('ok', `No problems found on ${plural(nodes, 'node')}.`)
      : `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info on ${plural(nodes, 'node')}.`,
  )
  // Offline, "now" is when the bundle was collected: say when that was.
  for (const cluster of result.clusters.filter((c) => c.bundle))
    out.push(
      ...wrap(`Read from bundle ${cluster.bundle}, collected ${absoluteTime(cluster.collectedAt, options.utc ?? true)}.`, proseWidth(options.width), '').map(
        (l) => palette.paint('muted', l),
      ),
    )
  if (options.debug)
    out.push(
      ...wrap(`Checked ${plural(result.rulesChecked.length, 'rule')}: ${result.rulesChecked.join(', ')}`, proseWidth(options.width), '').map((l) =>
        palette.paint('muted', l),
      ),
    )
  return out.join('\n')
}

/** The chain probe's one line per node; a fleet shows only the nodes whose probe did not answer. */
function measuredLines(result: DoctorResult, palette: Palette): string[] {
  const nodes = result.clusters.flatMap((c) => c.report.nodes).filter((n) => n.chain)
  const shown = nodes.length > 20 ? nodes.filter((n) => !n.chain!.ok) : nodes
  // A probe failure is a stranger's long text (a port-forward error chain): one line, its reason first.
  return shown.map(
    ({ node, chain }) =>
      `  ${node.namespace}/${node.name} ${chain!.target}: ${chain!.ok ? chain!.detail + signingText(chain!.signing) : palette.paint('warning', `no answer: ${foldProblem(chain!.detail)}`)}${chain!.keySearch ? `; its key ${chain!.keySearch}` : ''}`,
  )
}

function signingText(signing: NonNullable<NodeResult['chain']>['signing']): string {
  if (!signing) return ''
  if (!signing.counted) return '; signing not counted'
  return `; signed ${signing.signed} of ${signing.counted} blocks${signing.inActiveSet === false ? ', not in the active set' : ''}`
}

function details(cluster: ClusterReport, palette: Palette, look: Look, leadUps?: ReadonlyMap<string, TimelineEntry[]>): string[] {
  const out: string[] = []
  const byNode = new Map<string, Finding[]>()
  for (const finding of cluster.report.findings) {
    const key = `${finding.node.namespace}/${finding.node.name}`
    byNode.set(key, [...(byNode.get(key) ?? []), finding])
  }
  for (const [key, findings] of byNode) {
    out.push(palette.paint('subject', `ChainNode ${visible(key)}`))
    for (const f of findings) out.push(...renderFinding(f, palette, look), '')
    out.push(...renderLeadUp(key, leadUps?.get(key), cluster.collectedAt, palette, look))
  }
  return out
}

/** A fleet reads as causes, not nodes: a summary line per severity, then one block per group of look-alike findings. */
function renderFleetCluster(cluster: ClusterReport, palette: Palette, look: Look, leadUps?: ReadonlyMap<string, TimelineEntry[]>): string[] {
  const groups = groupFindings(cluster.report)
  return [
    ...fleetSummary(cluster, groups, palette, look.width),
    ...sampleNote(cluster, palette, look.width),
    '',
    ...fleetFindings(cluster, groups, palette, renderFinding, leadUps, look),
  ]
}

/** Rule failures and reads that failed: what makes a report incomplete. */
function readProblems(cluster: ClusterReport, palette: Palette): string[] {
  const out: string[] = []
  for (const error of cluster.report.ruleErrors) {
    out.push(
      palette.paint('error', `Tool error: rule ${error.ruleId} failed on ${visible(`${error.node.namespace}/${error.node.name}`)}: ${visible(error.message)}`),
    )
  }
  if (cluster.report.collectionErrors.length > 0) {
    out.push(palette.paint('warning', 'Incomplete: could not read'))
    for (const e of cluster.report.collectionErrors) out.push(`  - ${visible(e.what)} (${visible(e.reason)}): ${visible(e.message)}`)
    out.push('')
  }
  return out
}

/** One finding: headline, cause, action, docs and its evidence; times inside the words in the report's zone too. */
export function renderFinding(f: Finding, palette: Palette, look: Look = { utc: true }): string[] {
  const { width, utc } = look
  const prose = proseWidth(width)
  const label = palette.paint(f.severity, f.severity.toUpperCase().padEnd(7))
  const subject = visible(`${f.subject.kind}/${f.subject.name}`)
  const plainPrefix = `  ${f.severity.toUpperCase().padEnd(7)} ${f.ruleId}  ${subject}: `
  const headline = wrap(visible(timesIn(f.summary, utc)), prose, plainPrefix, '    ')
  // Painted after wrapping so escape codes do not count towards the width.
  headline[0] = `  ${label} ${palette.paint('rule', f.ruleId)}  ${subject}: ${headline[0].slice(plainPrefix.length)}`
  return [
    ...headline,
    ...wrap(visible(timesIn(f.cause, utc)), prose, '    Cause:    ', ' '.repeat(14)),
    ...wrap(visible(timesIn(f.action, utc)), prose, '    Action:   ', ' '.repeat(14)),
    `    Docs:     chainnode rules explain ${f.ruleId}`,
    ...(f.evidence.length ? ['    Evidence:'] : []),
    ...presentEvidence(f.evidence).map((line) => evidenceText(line, '      ', width, { paintSource: (s) => palette.paint('muted', s), utc })),
  ]
}
