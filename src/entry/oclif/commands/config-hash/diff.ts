import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { CONFIG_HASH_DIFF_COMMAND, runConfigHashDiff } from '../../../../commands/config-hash.js'

export default class ConfigHashDiff extends KubeCommand {
  static summary = 'Key-level difference of the rendered configuration between two bundles, or a bundle and the live cluster'
  static description = 'TOML and JSON files are parsed, so comments and layout do not count. Says whether a Pod restart followed (the Pod uid changed).'
  static examples = [
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz examples/bundles/config-change-restart.tgz --node cfg-1',
    '<%= config.bin %> config-hash diff examples/bundles/config-change-restart.tgz live --node cfg-1 -n sc-config-change-restart',
  ]
  static args = oclifArgs(CONFIG_HASH_DIFF_COMMAND.args)
  static flags = oclifFlags(CONFIG_HASH_DIFF_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHashDiff)
    await runConfigHashDiff({ ...flags, ...args }, this.session)
  }
}
