import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { CONFIG_HASH_COMMAND, runConfigHash } from '../../../../commands/config-hash.js'

export default class ConfigHash extends KubeCommand {
  static summary = CONFIG_HASH_COMMAND.summary
  static description = CONFIG_HASH_COMMAND.description
  static examples = [...CONFIG_HASH_COMMAND.examples]
  static args = oclifArgs(CONFIG_HASH_COMMAND.args)
  static flags = oclifFlags(CONFIG_HASH_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHash)
    await runConfigHash({ ...flags, ...args }, this.session)
  }
}
