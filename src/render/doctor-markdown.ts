import type { DoctorResult } from '../engine/doctor-result.js'
import { countBySeverity, worstSeverity } from '../engine/doctor-result.js'
import { visible } from './visible.js'
import { RULES } from '../rules/index.js'
import { evidenceText, presentEvidence, shortTime } from './evidence.js'
import { timesIn } from './timeline-time.js'

const cell = (text: string) => visible(text).replace(/\|/g, '\\|').replace(/\n/g, ' ')
const ICON = { error: '🔴 error', warning: '🟠 warning', info: '🔵 info', ok: '🟢 ok' } as const

/** Markdown meant to be pasted into an incident ticket or a runbook as is. */
export function renderDoctorMarkdown(result: DoctorResult): string {
  const counts = countBySeverity(result)
  const out: string[] = ['# kubectl chainnode doctor', '']
  out.push(`**${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info** — ${result.rulesChecked.length} rules checked.`, '')
  for (const cluster of result.clusters) {
    out.push(
      `## Cluster \`${visible(cluster.context)}\``,
      '',
      `Server: ${visible(cluster.server)}${cluster.bundle ? ` (bundle \`${visible(cluster.bundle)}\`)` : ''}, collected ${shortTime(cluster.collectedAt)}.`,
      '',
    )
    out.push('| Namespace | Node | Phase | Result |', '|---|---|---|---|')
    for (const { node, phase } of cluster.report.nodes) {
      out.push(
        `| ${cell(node.namespace ?? '')} | ${cell(node.name)} | ${cell(phase ?? '')} | ${ICON[worstSeverity(cluster.report, node.namespace, node.name)]} |`,
      )
    }
    out.push('')
    for (const f of cluster.report.findings) {
      const others = f.alsoFor?.length ? ` and ${f.alsoFor.length} other node${f.alsoFor.length === 1 ? '' : 's'}` : ''
      out.push(`### ${ICON[f.severity]}: \`${f.ruleId}\` on ${visible(`${f.node.namespace}/${f.node.name}`)}${others}`, '')
      out.push(
        `**${visible(timesIn(f.summary, true))}** (${visible(`${f.subject.kind}/${f.subject.name}`)})`,
        '',
        `- **Cause:** ${visible(timesIn(f.cause, true))}`,
        `- **Action:** ${visible(timesIn(f.action, true))}`,
        // A path inside our package breaks once pasted into an incident document: the page's title travels instead.
        `- **Docs:** \`chainnode rules explain ${f.ruleId}\`: ${RULES.find((r) => r.id === f.ruleId)?.title ?? f.ruleId}`,
        '',
      )
      if (f.evidence.length) {
        out.push('<details><summary>Evidence</summary>', '', '```text')
        for (const line of presentEvidence(f.evidence)) out.push(evidenceText(line, '', undefined))
        out.push('```', '', '</details>', '')
      }
    }
    if (cluster.report.collectionErrors.length || cluster.report.ruleErrors.length) {
      out.push('### Incomplete', '')
      for (const e of cluster.report.collectionErrors) out.push(visible(`- could not ${e.what} (${e.reason}): ${e.message}`))
      for (const e of cluster.report.ruleErrors) out.push(visible(`- rule \`${e.ruleId}\` failed on ${e.node.namespace}/${e.node.name}: ${e.message}`))
      out.push('')
    }
  }
  return out.join('\n')
}
