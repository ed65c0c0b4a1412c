import type { DoctorResult } from '../engine/doctor-result.js'
import { countBySeverity, worstSeverity } from '../engine/doctor-result.js'
import { RULES } from '../rules/index.js'
import { mdCell, mdCode, mdFence, mdText } from './markdown.js'
import { evidenceText, presentEvidence, shortTime } from './evidence.js'
import { timesIn } from './timeline-time.js'

const ICON = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info', ok: '🟢 ok' } as const

/** Markdown meant to be pasted into an incident ticket or a runbook as is. */
export function renderDoctorMarkdown(result: DoctorResult): string {
  const counts = countBySeverity(result)
  const out: string[] = ['# kubectl chainnode doctor', '']
  out.push(`**${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info** — ${result.rulesChecked.length} rules checked.`, '')
  for (const cluster of result.clusters) {
    out.push(
      `## Cluster ${mdCode(cluster.context)}`,
      '',
      `Server: ${mdCode(cluster.server)}${cluster.bundle ? ` (bundle ${mdCode(cluster.bundle)})` : ''}, collected ${mdText(shortTime(cluster.collectedAt))}.`,
      '',
    )
    out.push('| Namespace | Node | Phase | Result |', '|---|---|---|---|')
    for (const { node, phase } of cluster.report.nodes) {
      out.push(
        `| ${mdCell(node.namespace ?? '')} | ${mdCell(node.name)} | ${mdCell(phase ?? '')} | ${ICON[worstSeverity(cluster.report, node.namespace, node.name)]} |`,
      )
    }
    out.push('')
    for (const f of cluster.report.findings) {
      const others = f.alsoFor?.length ? ` and ${f.alsoFor.length} other node${f.alsoFor.length === 1 ? '' : 's'}` : ''
      out.push(`### ${ICON[f.severity]}: \`${f.ruleId}\` on ${mdText(`${f.node.namespace}/${f.node.name}`)}${others}`, '')
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
