import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { RULES_EXPLAIN_COMMAND, runRulesExplain } from '../../../../commands/rules.js'

export default class RulesExplain extends BaseCommand {
  static summary = "Print a rule's documentation page"
  static examples = ['<%= config.bin %> rules explain not-syncing']
  static args = oclifArgs(RULES_EXPLAIN_COMMAND.args)
  static flags = oclifFlags(RULES_EXPLAIN_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesExplain)
    await runRulesExplain({ ...flags, ...args }, this.session)
  }
}
