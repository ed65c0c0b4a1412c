import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { RULES_EXPLAIN_COMMAND, runRulesExplain } from '../../../../commands/rules.js'

export default class RulesExplain extends BaseCommand {
  static summary = RULES_EXPLAIN_COMMAND.summary
  static examples = [...RULES_EXPLAIN_COMMAND.examples]
  static args = oclifArgs(RULES_EXPLAIN_COMMAND.args)
  static flags = oclifFlags(RULES_EXPLAIN_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RulesExplain)
    await runRulesExplain({ ...flags, ...args }, this.session)
  }
}
