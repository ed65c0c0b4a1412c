import type { Rule } from './define-rule.js'

/** Where a rule's documentation page lives, relative to the package root (`chainnode rules explain ID` prints it). */
export const docsPath = (ruleId: string) => `docs/rules/${ruleId}.md`

/**
 * The head of a rule's docs page, written from the rule's own metadata (npm run docs:rules), so the page cannot
 * say another severity or another symptom than the code: its id, severity (and how it varies), and what it implements.
 */
export function ruleDocsHeader(rule: Pick<Rule, 'severity' | 'severityNote' | 'specRow' | 'explains'> & { id: string }): string {
  return [
    `# ${rule.id}`,
    '',
    `Severity: ${rule.severity}${rule.severityNote ? ` ${rule.severityNote}` : ''}`,
    '',
    `Implements: ${rule.specRow}`,
    '',
    // What doctor shows inside this rule's incident, as symptoms, when they fire on the same node.
    ...(rule.explains?.length ? [`Explains: ${rule.explains.map((id) => `[${id}](${id}.md)`).join(', ')}`, ''] : []),
  ].join('\n')
}

/** A page with its head replaced: everything up to the first paragraph after "Implements:" is the generated part. */
export function withRuleDocsHeader(page: string, rule: Parameters<typeof ruleDocsHeader>[0]): string {
  const paragraphs = page.split(/\n{2,}/)
  const afterHead = paragraphs.findIndex((p, i) => i > 0 && !/^(Severity|Implements|Explains):/.test(p) && !p.startsWith('# '))
  return `${ruleDocsHeader(rule)}\n${paragraphs.slice(afterHead).join('\n\n')}`
}
