import { oclifFlags } from '../oclif-flags.js'
import { BaseCommand } from '../command.js'
import { VERSION_COMMAND, runVersion } from '../../../commands/version.js'

export default class Version extends BaseCommand {
  static summary = VERSION_COMMAND.summary
  static examples = [...VERSION_COMMAND.examples]
  static flags = oclifFlags(VERSION_COMMAND.flags)

  async run(): Promise<void> {
    const { flags } = await this.parse(Version)
    await runVersion({ ...flags }, this.session)
  }
}
