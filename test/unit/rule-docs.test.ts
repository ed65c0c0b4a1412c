import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { docsPath, ruleDocsHeader, withRuleDocsHeader } from '../../src/engine/rule-docs.js'
import { RULES } from '../../src/rules/index.js'
import { ROOT } from '../helpers/cli.js'

describe('rule docs pages start with what the rule itself says (npm run docs:rules writes it)', () => {
  it.each(RULES.map((rule) => [rule.id, rule] as const))('%s', (id, rule) => {
    const page = readFileSync(path.join(ROOT, docsPath(id)), 'utf8')
    expect(page.startsWith(`${ruleDocsHeader(rule)}\n`), `${docsPath(id)} is stale: run npm run docs:rules`).toBe(true)
    // How the severity varies starts from the default or qualifies it, never names another default.
    if (rule.severityNote) expect(rule.severityNote).toMatch(/^(\(|when )/)
  })

  it('rewrites a stale head and keeps the hand-written rest', () => {
    const rule = { id: 'x', severity: 'warning', severityNote: '(error when worse)', specRow: 'Row 1' } as const
    const stale = '# x\n\nSeverity: error\n\nImplements: Row 0\n\nWhy it matters.\n\n## What it checks\n\n- this\n'
    expect(withRuleDocsHeader(stale, rule)).toBe(
      '# x\n\nSeverity: warning (error when worse)\n\nImplements: Row 1\n\nWhy it matters.\n\n## What it checks\n\n- this\n',
    )
    expect(withRuleDocsHeader(withRuleDocsHeader(stale, rule), rule)).toBe(withRuleDocsHeader(stale, rule))
  })
})
