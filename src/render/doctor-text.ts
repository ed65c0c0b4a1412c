import type { ClusterReport, DoctorResult, RunTotals } from '../engine/doctor-result.js'
import type { NodeResult } from '../engine/run-rules.js'
import { runTotals } from '../engine/doctor-result.js'
import { problemOf } from '../engine/diagnosis.js'
import type { Finding } from '../engine/define-rule.js'
import type { Palette } from './palette.js'
import { visible } from './visible.js'
import { evidenceText, presentEvidence } from './evidence.js'
import { absoluteTime, timesIn } from './timeline-time.js'
import { proseWidth, wrap } from './width.js'
import type { TimelineEntry } from '../timeline/types.js'
import type { Look } from './look.js'
import { firstScreen, headlineOf, incidentBlocks, nodeList, plural, sampleNote } from './doctor-fleet-text.js'

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

export function renderDoctorText(result: DoctorResult, palette: Palette, options: DoctorTextOptions = {}): string {
  const out: string[] = []
  const fleet = result.clusters.length > 1 || result.clusters.some((c) => c.report.nodes.length > 1)
  const look = { width: options.width, utc: options.utc ?? true }
  for (const cluster of result.clusters) {
    const unread = cluster.report.nodes.length === 0 ? cluster.report.collectionErrors[0] : undefined
    if (result.clusters.length > 1 && unread) {
      // A cluster that could not be read at all: one line, and the other clusters' reports follow.
      out.push(palette.paint('warning', `Cluster ${visible(cluster.context)}: not read (${visible(unread.reason)}): ${visible(unread.message)}`), '')
      continue
    }
    if (result.clusters.length > 1) out.push(palette.paint('heading', `Cluster ${visible(cluster.context)} (${visible(cluster.server)})`), '')
    // A fleet opens with its answer: one line per incident, then the nodes not measured and the healthy ones.
    if (fleet && cluster.report.nodes.length > 0) out.push(...firstScreen(cluster, palette, look), '')
    out.push(...incidentBlocks(cluster, palette, renderFinding, options.leadUps, look))
    // Below the incidents, not on the first screen: where the evidence of look-alike nodes came from.
    const note = sampleNote(cluster, palette, look.width)
    if (note.length) out.push(...note, '')
    out.push(...readProblems(cluster, palette))
  }
  const measured = measuredLines(result, palette, look)
  if (measured.length) out.push(palette.paint('heading', 'Measured on the nodes'), ...measured, '')
  out.push(...totalsLine(runTotals(result), palette, look))
  // Offline, "now" is when the bundle was collected: say when that was.
  for (const cluster of result.clusters.filter((c) => c.bundle))
    out.push(
      ...wrap(`Read from bundle ${cluster.bundle}, collected ${absoluteTime(cluster.collectedAt, look.utc)}.`, proseWidth(options.width), '').map((l) =>
        palette.paint('muted', l),
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

/** The last line: findings and incidents by severity, on how many ChainNodes (ChainNodeSets apart), and how many were not measured. */
function totalsLine(totals: RunTotals, palette: Palette, look: Look): string[] {
  const { findings, incidents, chainNodes, chainNodeSets } = totals
  const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
  const nodes = sum(chainNodes)
  const sets = sum(chainNodeSets)
  const on = `${plural(nodes, 'node')}${sets ? ` and ${plural(sets, 'ChainNodeSet')}` : ''}`
  const notMeasured = chainNodes['not-measured'] + chainNodeSets['not-measured']
  const found = findings.error + findings.warning + findings.info
  if (found === 0 && notMeasured === 0) return [palette.paint('ok', `No problems found on ${on}.`)]
  const incidentCount = incidents.error + incidents.warning + incidents.info
  const text = [
    found === 0
      ? `No problems seen on ${on}`
      : `${plural(findings.error, 'error')}, ${plural(findings.warning, 'warning')}, ${findings.info} info in ${plural(incidentCount, 'incident')} on ${on}`,
    notMeasured ? `; ${notMeasured.toLocaleString('en-US')} not measured, so not called healthy` : '',
    '.',
  ].join('')
  return wrap(text, proseWidth(look.width), '').map((line) => (found === 0 ? palette.paint('warning', line) : line))
}

/**
 * The chain probe: a node per line for a few nodes; for more, one line for those that answered and one line per
 * kind of failure with its count. Whole lines: a failure is a stranger's long text, wrapped, never cut.
 */
function measuredLines(result: DoctorResult, palette: Palette, look: Look): string[] {
  const nodes = result.clusters.flatMap((c) => c.report.nodes).filter((n) => n.chain)
  const prose = proseWidth(look.width)
  if (nodes.length <= FEW_NODES)
    return nodes.flatMap(({ node, chain }) => {
      const said =
        (chain!.ok ? chain!.detail + signingText(chain!.signing) : `no answer: ${problemOf(chain!.detail)}`) +
        (chain!.keySearch ? `; its key ${chain!.keySearch}` : '')
      const lines = wrap(visible(`${node.namespace}/${node.name} ${chain!.target}: ${said}`), prose, '  ', '    ')
      return chain!.ok ? lines : lines.map((l) => palette.paint('warning', l))
    })
  const answered = result.clusters.reduce((sum, c) => sum + c.diagnosis.probe.answered.length, 0)
  return [
    ...(answered ? [`  the chain answered on ${plural(answered, 'node')}`] : []),
    ...result.clusters.flatMap((c) =>
      c.diagnosis.probe.failures.flatMap(({ problem, nodes: failed }) =>
        wrap(visible(`no answer on ${plural(failed.length, 'node')}: ${problem} (${nodeList(failed, 3)})`), prose, '  ', '    ').map((l) =>
          palette.paint('warning', l),
        ),
      ),
    ),
  ]
}

/** Up to this many probed nodes, "Measured on the nodes" has a line per node. */
const FEW_NODES = 5

function signingText(signing: NonNullable<NodeResult['chain']>['signing']): string {
  if (!signing) return ''
  if (!signing.counted) return '; signing not counted'
  return `; signed ${signing.signed} of ${signing.counted} blocks${signing.inActiveSet === false ? ', not in the active set' : ''}`
}

/** Rule failures and reads that failed: what makes a report incomplete. */
function readProblems(cluster: ClusterReport, palette: Palette, width?: number): string[] {
  const out: string[] = []
  for (const error of cluster.report.ruleErrors) {
    out.push(
      palette.paint('error', `Tool error: rule ${error.ruleId} failed on ${visible(`${error.node.namespace}/${error.node.name}`)}: ${visible(error.message)}`),
    )
  }
  if (cluster.report.collectionErrors.length > 0) {
    out.push(palette.paint('warning', 'Incomplete: could not read'))
    const prose = proseWidth(width)
    for (const { what, reason, message } of cluster.diagnosis.unread) {
      const head = what.length === 1 ? visible(what[0]) : `${what.length.toLocaleString('en-US')} reads`
      out.push(...wrap(`${head} (${visible(reason)}): ${visible(message)}`, prose, '  - ', '    '))
      if (what.length > 1) out.push(...wrap(what.map(visible).join(', '), prose, '      '))
    }
    out.push('')
  }
  return out
}

/** One finding: headline, cause, action, docs and its evidence; times inside the words in the report's zone too. */
export function renderFinding(f: Finding, palette: Palette, look: Look = { utc: true }): string[] {
  const { width, utc } = look
  const prose = proseWidth(width)
  const subject = visible(`${f.subject.kind}/${f.subject.name}`)
  const headline = headlineOf(f, subject, visible(timesIn(f.summary, utc)), palette, prose)
  return [
    ...headline,
    ...wrap(visible(timesIn(f.cause, utc)), prose, '    Cause:    ', ' '.repeat(14)),
    ...wrap(visible(timesIn(f.action, utc)), prose, '    Action:   ', ' '.repeat(14)),
    `    Docs:     chainnode rules explain ${f.ruleId}`,
    ...(f.evidence.length ? ['    Evidence:'] : []),
    ...presentEvidence(f.evidence).map((line) => evidenceText(line, '      ', width, { paintSource: (s) => palette.paint('muted', s), utc })),
  ]
}
