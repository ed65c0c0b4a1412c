/**
 * docs/operator-vocabulary.md, the catalogue of the operator's failure vocabulary
 * (src/rules/vocabulary/) as a table a reviewer can diff against the next operator release.
 *   npx tsx scripts/gen-vocabulary-docs.ts           rewrite it
 *   npx tsx scripts/gen-vocabulary-docs.ts --check   exit 1 when it differs
 * test/unit/rules/catalogue/operator-vocabulary.test.ts fails when it is out of date.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { OPERATOR_VERSION, SHARED_ACTIONS, VOCABULARY, type VocabularyEntry } from '../src/rules/vocabulary/index.js'

export const VOCABULARY_DOC = path.resolve(import.meta.dirname, '..', 'docs', 'operator-vocabulary.md')

const WHERE: Record<VocabularyEntry['channel'], string> = {
  event: 'Event',
  'reconcile-error': 'manager log: `Reconciler error`',
  'error-log': 'manager log: error line',
  log: 'manager log: info line',
  status: 'status',
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')
const code = (text: string) => '`' + text.replace(/`/g, "'") + '`'

export function renderVocabularyDoc(): string {
  const rows = VOCABULARY.map((entry) => {
    const action = SHARED_ACTIONS[entry.action] ?? entry.action
    return `| ${entry.id} | ${entry.kind} | ${WHERE[entry.channel]}${entry.reason ? ` ${code(entry.reason)}` : ''} | ${cell(code(entry.template))} | ${entry.rule} | ${entry.severity} | ${cell(entry.cause)} | ${cell(action === 'api' || action === 'unjail' ? `see docs/rules/${entry.rule}.md` : action)} |`
  })
  const rules = [...new Set(VOCABULARY.map((entry) => entry.rule))]
  return [
    '# The operator’s failure vocabulary',
    '',
    `Read from the source of ${OPERATOR_VERSION} (\`internal/controllers/chainnode\`, \`internal/controllers/chainnodeset\`): every`,
    'Warning Event its recorders write, every error a Reconcile returns (controller-runtime logs it as',
    '`"msg":"Reconciler error"` and records no Event), the error lines it logs and goes on, and the phases and status',
    'fields that say something is wrong. Generated from `src/rules/vocabulary/` by',
    '`npx tsx scripts/gen-vocabulary-docs.ts`; diff the next operator release against it.',
    '',
    `${VOCABULARY.length} entries, reported by ${rules.length} rules: ${rules.map((rule) => `[${rule}](rules/${rule}.md)`).join(', ')}.`,
    'A message none of them knows is reported by reconcile-failing with the operator’s own words as its summary.',
    '',
    'Placeholders: `{object}` the ChainNode or ChainNodeSet, `{namespace}` its namespace, `{kind}` its kind, `{operatorNamespace}`/`{operatorName}` the operator release that reconciles it; named groups of the pattern (`{height}`) come from the message.',
    '',
    '| id | kind | where | message | rule | severity | what it means | what to do |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n')
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = renderVocabularyDoc()
  if (process.argv.includes('--check')) {
    const same = readFileSync(VOCABULARY_DOC, 'utf8') === text
    process.stdout.write(
      same ? 'docs/operator-vocabulary.md is up to date\n' : 'docs/operator-vocabulary.md differs: run npx tsx scripts/gen-vocabulary-docs.ts\n',
    )
    process.exit(same ? 0 : 1)
  }
  writeFileSync(VOCABULARY_DOC, text)
}
