/**
 * Writes the head of every docs/rules/<id>.md (id, severity, what it implements) from the rule's metadata; the rest
 * of each page is hand-written and kept. test/unit/rule-docs.test.ts fails when a page's head is stale.
 *   npm run docs:rules
 */
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { RULES } from '../src/rules/index.js'
import { docsPath, withRuleDocsHeader } from '../src/engine/rule-docs.js'

const root = path.resolve(import.meta.dirname, '..')
for (const rule of RULES) {
  const file = path.join(root, docsPath(rule.id))
  const page = readFileSync(file, 'utf8')
  const written = withRuleDocsHeader(page, rule)
  if (written !== page) {
    writeFileSync(file, written)
    process.stdout.write(`wrote ${docsPath(rule.id)}\n`)
  }
}
