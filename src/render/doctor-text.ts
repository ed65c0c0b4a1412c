import type { ClusterReport, DoctorResult } from '../engine/doctor-result.js'
import { countBySeverity, worstSeverity } from '../engine/doctor-result.js'
import type { Finding } from '../rules/define-rule.js'
import type { Palette } from '../palette.js'
import { columns } from './columns.js'
import { compareText } from '../compare.js'
import type { TimelineEntry } from '../timeline/types.js'
import { renderLeadUp } from './doctor-lead-up.js'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** leadUps: per node (namespace/name), the timeline entries leading up to its worst finding. */
export function renderDoctorText(result: DoctorResult, palette: Palette, leadUps?: ReadonlyMap<string, TimelineEntry[]>): string {
  const out: string[] = []
  const fleet = result.clusters.length > 1 || result.clusters.some((c) => c.report.nodes.length > 1)
  for (const cluster of result.clusters) {
    if (result.clusters.length > 1) out.push(palette.paint('heading', `Cluster ${cluster.context} (${cluster.server})`), '')
    if (cluster.report.nodes.length === 0) out.push('No ChainNodes in scope.', '')
    if (fleet && cluster.report.nodes.length > 0) out.push(summaryTable(cluster, palette), '')
    out.push(...details(cluster, palette, leadUps))
  }
  const counts = countBySeverity(result)
  const nodes = result.clusters.reduce((sum, c) => sum + c.report.nodes.length, 0)
  const found = counts.error + counts.warning + counts.info
  out.push(
    found === 0
      ? palette.paint('ok', `No problems found on ${plural(nodes, 'node')}.`)
      : `${plural(counts.error, 'error')}, ${plural(counts.warning, 'warning')}, ${counts.info} info on ${plural(nodes, 'node')}.`,
  )
  out.push(palette.paint('muted', `Checked ${plural(result.rulesChecked.length, 'rule')}: ${result.rulesChecked.join(', ')}`))
  return out.join('\n')
}

function summaryTable(cluster: ClusterReport, palette: Palette): string {
  const rows = cluster.report.nodes.map(({ node, phase }) => {
    const worst = worstSeverity(cluster.report, node.namespace, node.name)
    const n = cluster.report.findings.filter((f) => f.node.namespace === node.namespace && f.node.name === node.name).length
    return [node.namespace ?? '', node.name, phase ?? '', worst === 'ok' ? 'ok' : `${worst} (${plural(n, 'finding')})`]
  })
  const order = { error: 0, warning: 1, info: 2, ok: 3 } as Record<string, number>
  rows.sort((a, b) => order[a[3].split(' ')[0]] - order[b[3].split(' ')[0]] || compareText(`${a[0]}/${a[1]}`, `${b[0]}/${b[1]}`))
  return columns(['namespace', 'node', 'phase', 'result'], rows)
    .split('\n')
    .map((line, i) => (i === 0 ? line : paintResult(line, palette)))
    .join('\n')
}

function paintResult(line: string, palette: Palette): string {
  const match = /(error|warning|info) \(/.exec(line)
  if (!match) return line.replace(/ ok$/, ` ${palette.paint('ok', 'ok')}`)
  return line.slice(0, match.index) + palette.paint(match[1] as 'error', line.slice(match.index))
}

function details(cluster: ClusterReport, palette: Palette, leadUps?: ReadonlyMap<string, TimelineEntry[]>): string[] {
  const out: string[] = []
  const byNode = new Map<string, Finding[]>()
  for (const finding of cluster.report.findings) {
    const key = `${finding.node.namespace}/${finding.node.name}`
    byNode.set(key, [...(byNode.get(key) ?? []), finding])
  }
  for (const [key, findings] of byNode) {
    out.push(palette.paint('subject', `ChainNode ${key}`))
    for (const f of findings) out.push(...renderFinding(f, palette), '')
    out.push(...renderLeadUp(key, leadUps?.get(key), cluster.collectedAt, palette))
  }
  for (const error of cluster.report.ruleErrors) {
    out.push(palette.paint('error', `Tool error: rule ${error.ruleId} failed on ${error.node.namespace}/${error.node.name}: ${error.message}`))
  }
  if (cluster.report.collectionErrors.length > 0) {
    out.push(palette.paint('warning', 'Incomplete: could not read'))
    for (const e of cluster.report.collectionErrors) out.push(`  - ${e.what} (${e.reason}): ${e.message}`)
    out.push('')
  }
  return out
}

export function renderFinding(f: Finding, palette: Palette): string[] {
  const label = palette.paint(f.severity, f.severity.toUpperCase().padEnd(7))
  const subject = `${f.subject.kind}/${f.subject.name}`
  return [
    `  ${label} ${palette.paint('rule', f.ruleId)}  ${subject}: ${f.summary}`,
    `    Cause:    ${f.cause}`,
    `    Action:   ${f.action}`,
    ...(f.evidence.length ? ['    Evidence:'] : []),
    ...f.evidence.map((e) => `      ${e.at ? `${e.at}  ` : ''}${palette.paint('muted', e.source)}: ${e.text}`),
  ]
}
