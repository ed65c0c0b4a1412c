import { oclifFlags } from '../oclif-flags.js'
import { BaseCommand } from '../command.js'
import { VERSION_COMMAND, runVersion } from '../../../commands/version.js'

export default class Version extends BaseCommand {
  static summary = 'Print the version of kubectl-chainnode (the same as --version)'
  static examples = ['<%= config.bin %> version', '<%= config.bin %> version -o json']
  static flags = oclifFlags(VERSION_COMMAND.flags)

  async run(): Promise<void> {
    const { flags } = await this.parse(Version)
    await runVersion({ ...flags }, this.session)
  }
}
