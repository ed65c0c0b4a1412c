import { oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { RULES_COMMAND, runRules } from '../../../../commands/rules.js'

export default class Rules extends BaseCommand {
  static summary = 'List the diagnostic rules doctor runs'
  static examples = ['<%= config.bin %> rules', '<%= config.bin %> rules -o json', '<%= config.bin %> rules explain image-pull']
  static flags = oclifFlags(RULES_COMMAND.flags)

  async run(): Promise<void> {
    const { flags } = await this.parse(Rules)
    await runRules({ ...flags }, this.session)
  }
}
