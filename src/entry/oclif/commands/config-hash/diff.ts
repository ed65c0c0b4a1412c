import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { CONFIG_HASH_DIFF_COMMAND, runConfigHashDiff } from '../../../../commands/config-hash.js'

export default class ConfigHashDiff extends KubeCommand {
  static summary = CONFIG_HASH_DIFF_COMMAND.summary
  static description = CONFIG_HASH_DIFF_COMMAND.description
  static examples = [...CONFIG_HASH_DIFF_COMMAND.examples]
  static args = oclifArgs(CONFIG_HASH_DIFF_COMMAND.args)
  static flags = oclifFlags(CONFIG_HASH_DIFF_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHashDiff)
    await runConfigHashDiff({ ...flags, ...args }, this.session)
  }
}
