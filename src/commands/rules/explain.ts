import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { Args } from '@oclif/core'
import { BaseCommand } from '../../base/command.js'
import { usageError } from '../../errors.js'
import { docsPath } from '../../rules/docs.js'
import { RULES } from '../../rules/index.js'

export default class RulesExplain extends BaseCommand {
  static summary = "Print a rule's documentation page"
  static examples = ['<%= config.bin %> rules explain not-syncing']
  static args = { id: Args.string({ description: 'rule id', required: true }) }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesExplain)
    await this.setupOutput(flags)
    const rule = RULES.find((r) => r.id === args.id)
    if (!rule) throw usageError(`unknown rule "${args.id}"`, 'list the rules with: chainnode rules')
    const page = path.join(this.config.root, docsPath(rule.id))
    this.print(existsSync(page) ? readFileSync(page, 'utf8') : `${rule.id}: ${rule.title}\n\nImplements: ${rule.specRow}\n`)
  }
}
