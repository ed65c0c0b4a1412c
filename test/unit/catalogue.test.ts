import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { isRuleId, RULE_IDS, RULES } from '../../src/rules/index.js'
import { SPEC_SYMPTOMS } from '../../src/rules/spec-symptoms.js'
import { ROOT } from '../helpers/cli.js'
import { referenceFile } from '../helpers/reference.js'

describe('rule catalogue', () => {
  it('has every rule id the spec symptom table requires, once', () => {
    const ids = RULES.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const { rule } of SPEC_SYMPTOMS) expect(ids).toContain(rule)
  })

  it('registers each rule under its own id, in RULE_IDS order', () => {
    expect(RULES.map((r) => r.id)).toEqual([...RULE_IDS])
  })

  it('takes each rule from the file named after its id: the id is written in the catalogue and in its rule alone', async () => {
    for (const rule of RULES)
      expect({ id: rule.id, same: (await import(`../../src/rules/${rule.id}.ts`)).default === rule }).toEqual({ id: rule.id, same: true })
  })

  it('has a docs page for every registered id and no page for an id it lacks', () => {
    const pages = readdirSync(path.join(ROOT, 'docs', 'rules'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.replace(/\.md$/, ''))
    expect(pages.sort()).toEqual([...RULE_IDS].sort())
    expect(isRuleId('not-syncing')).toBe(true)
    expect(isRuleId('not-a-rule')).toBe(false)
  })

  it('names only registered rules in suppressedBy, never the rule itself', () => {
    for (const rule of RULES)
      for (const by of rule.suppressedBy ?? [])
        expect({ rule: rule.id, by, known: isRuleId(by) }).toEqual({ rule: rule.id, by: expect.not.stringMatching(`^${rule.id}$`), known: true })
  })

  it.each(RULES.map((r) => [r.id, r] as const))('%s has a file named after it and a docs page', (id, rule) => {
    expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
    expect(existsSync(path.join(ROOT, 'src', 'rules', `${id}.ts`))).toBe(true)
    const page = path.join(ROOT, 'docs', 'rules', `${id}.md`)
    expect(existsSync(page)).toBe(true)
    expect(readFileSync(page, 'utf8')).toMatch(new RegExp(`^# ${id}\\n`))
    expect(rule.title.length).toBeGreaterThan(5)
    expect(rule.specRow.length).toBeGreaterThan(5)
  })

  it('covers every symptom row the project lists, each by the rule named for it', () => {
    expect(SPEC_SYMPTOMS.length).toBe(12)
    expect(new Set(SPEC_SYMPTOMS.map((row) => row.symptom)).size).toBe(SPEC_SYMPTOMS.length)
    for (const { symptom, rule } of SPEC_SYMPTOMS) expect({ symptom, rule: RULES.find((r) => r.specRow === symptom)?.id }).toEqual({ symptom, rule })
  })

  it('lists exactly the rows of the diagnostics reference symptom table', (ctx) => {
    const reference = referenceFile('spec/operator-diagnostics.md')
    if (!reference.path) return ctx.skip(reference.skipReason)
    const spec = readFileSync(reference.path, 'utf8')
    const table = spec.slice(spec.indexOf('| Symptom |'), spec.indexOf('## 8. Limits'))
    const rows = table
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Symptom') && !line.startsWith('|---'))
      .map((row) => row.split('|')[1].trim())
    expect(SPEC_SYMPTOMS.map((row) => row.symptom)).toEqual(rows)
  })
})
