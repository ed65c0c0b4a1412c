import { oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { RULES_COMMAND, runRules } from '../../../../commands/rules.js'

export default class Rules extends BaseCommand {
  static summary = RULES_COMMAND.summary
  static examples = [...RULES_COMMAND.examples]
  static flags = oclifFlags(RULES_COMMAND.flags)

  async run(): Promise<void> {
    const { flags } = await this.parse(Rules)
    await runRules({ ...flags }, this.session)
  }
}
