import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ExitCode } from '../util/errors.js'
import { columns } from '../render/columns.js'
import { docsPath } from '../engine/rule-docs.js'
import { RULES, unknownRule } from '../rules/index.js'
import { defineCommand, GLOBAL_FLAGS, outputSpec, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'

export const RULES_COMMAND = defineCommand({
  summary: 'List the diagnostic rules doctor runs',
  examples: ['<%= config.bin %> rules', '<%= config.bin %> rules -o json', '<%= config.bin %> rules explain image-pull'],
  args: {},
  flags: { ...GLOBAL_FLAGS, output: outputSpec(['text', 'json']) },
  subcommands: ['explain'],
})

export async function runRulesList(input: InputOf<typeof RULES_COMMAND>, session: Session): Promise<ExitCode> {
  const catalogue = RULES.map((rule) => ({
    id: rule.id,
    severity: rule.severity,
    title: rule.title,
    specRow: rule.specRow,
    // The container logs the rule reads: doctor reads these and no others.
    logs: rule.logs ?? [],
    docs: docsPath(rule.id),
  }))
  if (input.output === 'json') session.output.print(JSON.stringify({ schemaVersion: 1, kind: 'RuleCatalogue', rules: catalogue }, null, 2))
  else
    session.output.print(
      columns(
        ['id', 'severity', 'title'],
        catalogue.map((r) => [r.id, r.severity, r.title]),
      ),
    )
  return ExitCode.Clean
}

export const RULES_EXPLAIN_COMMAND = defineCommand({
  summary: "Print a rule's documentation page",
  examples: ['<%= config.bin %> rules explain not-syncing'],
  args: { id: { description: 'rule id', required: true } },
  flags: GLOBAL_FLAGS,
})

export async function runRulesExplain(input: InputOf<typeof RULES_EXPLAIN_COMMAND>, session: Session): Promise<ExitCode> {
  const rule = RULES.find((r) => r.id === input.id)
  if (!rule) throw unknownRule(input.id)
  const page = path.join(session.root, docsPath(rule.id))
  session.output.print(existsSync(page) ? readFileSync(page, 'utf8') : `${rule.id}: ${rule.title}\n\nImplements: ${rule.specRow}\n`)
  return ExitCode.Clean
}
