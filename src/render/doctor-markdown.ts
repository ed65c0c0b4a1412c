import type { DoctorResult } from '../engine/doctor-result.js'
import { runTotals } from '../engine/doctor-result.js'
import { RULES } from '../rules/index.js'
import { mdCell, mdCode, mdFence, mdText } from './markdown.js'
import { evidenceText, presentEvidence, shortTime } from './evidence.js'
import { timesIn } from './timeline-time.js'

const ICON = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info', 'not-measured': '⚪ not measured', ok: '🟢 ok' } as const

/** Markdown meant to be pasted into an incident ticket or a runbook as is. */
export function renderDoctorMarkdown(result: DoctorResult): string {
  const totals = runTotals(result)
  const counts = totals.findings
  const incidents = totals.incidents.error + totals.incidents.warning + totals.incidents.info
  const notMeasured = totals.chainNodes['not-measured'] + totals.chainNodeSets['not-measured']
  const out: string[] = ['# kubectl chainnode doctor', '']
  out.push(
    `**${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info** in ${incidents} incident(s)${notMeasured ? `, ${notMeasured} node(s) not measured` : ''} — ${result.rulesChecked.length} rules checked.`,
    '',
  )
  for (const cluster of result.clusters) {
    out.push(
      `## Cluster ${mdCode(cluster.context)}`,
      '',
      `Server: ${mdCode(cluster.server)}${cluster.bundle ? ` (bundle ${mdCode(cluster.bundle)})` : ''}, collected ${mdText(shortTime(cluster.collectedAt))}.`,
      '',
    )
    out.push('| Namespace | Node | Phase | Result |', '|---|---|---|---|')
    const phases = new Map(cluster.report.nodes.map((n) => [n.node, n.phase]))
    for (const { node, state, notMeasured: why } of cluster.diagnosis.nodes) {
      const name = node.kind === 'ChainNodeSet' ? `${node.name} (ChainNodeSet)` : node.name
      out.push(`| ${mdCell(node.namespace ?? '')} | ${mdCell(name)} | ${mdCell(phases.get(node) ?? '')} | ${ICON[state]}${why ? `: ${mdCell(why)}` : ''} |`)
    }
    out.push('')
    // Incident by incident: the cause, then what it explains.
    const ordered = cluster.diagnosis.incidents.flatMap((incident) => [incident.cause, ...incident.symptoms]).flatMap((group) => group.findings)
    for (const f of ordered) {
      const others = f.alsoFor?.length ? ` and ${f.alsoFor.length} other node${f.alsoFor.length === 1 ? '' : 's'}` : ''
      const role = cluster.diagnosis.roleOf.get(f)
      const explained = role?.role === 'symptom' ? ` (explained by \`${role.incident.cause.ruleId}\`)` : ''
      out.push(`### ${ICON[f.severity]}: \`${f.ruleId}\` on ${mdText(`${f.node.namespace}/${f.node.name}`)}${others}${explained}`, '')
      out.push(
        `**${mdText(timesIn(f.summary, true))}** (${mdText(`${f.subject.kind}/${f.subject.name}`)})`,
        '',
        `- **Cause:** ${mdText(timesIn(f.cause, true))}`,
        `- **Action:** ${mdText(timesIn(f.action, true))}`,
        // A path inside our package breaks once pasted into an incident document: the page's title travels instead.
        `- **Docs:** \`chainnode rules explain ${f.ruleId}\`: ${mdText(RULES.find((r) => r.id === f.ruleId)?.title ?? f.ruleId)}`,
        '',
      )
      if (f.evidence.length) {
        const lines = presentEvidence(f.evidence).map((line) => evidenceText(line, '', undefined))
        out.push('<details><summary>Evidence</summary>', '', ...mdFence(lines), '', '</details>', '')
      }
    }
    if (cluster.report.collectionErrors.length || cluster.report.ruleErrors.length) {
      out.push('### Incomplete', '')
      for (const e of cluster.report.collectionErrors) out.push(`- could not ${mdText(e.what)} (${mdText(e.reason)}): ${mdText(e.message)}`)
      for (const e of cluster.report.ruleErrors) {
        out.push(`- rule ${mdCode(e.ruleId)} failed on ${mdText(`${e.node.namespace}/${e.node.name}`)}: ${mdText(e.message)}`)
      }
      out.push('')
    }
  }
  return out.join('\n')
}
