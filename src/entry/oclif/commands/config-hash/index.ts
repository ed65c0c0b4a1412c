import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { CONFIG_HASH_COMMAND, runConfigHash } from '../../../../commands/config-hash.js'
import { STATE_DIR_HELP } from '../../../../util/state-dir.js'

export default class ConfigHash extends KubeCommand {
  static summary = "Compare a node's config-hash with the rendered configuration and attribute Pod restarts"
  static description = `Verdicts: in sync; configuration changed and restart pending or deferred; restarted because the configuration changed (intentional); restarted with the same hash (unexpected, with the operator log lines and Events around the restart).
Every read of a node by any command records its hashes and Pod in history.json under the state directory (${STATE_DIR_HELP}) so restarts can be compared across runs.`
  static examples = [
    '<%= config.bin %> config-hash fullnode-0 -n cosmos',
    '<%= config.bin %> config-hash fullnode-0 --watch',
    '<%= config.bin %> config-hash cfg-0 --bundle examples/bundles/config-change-restart.tgz',
  ]
  static args = oclifArgs(CONFIG_HASH_COMMAND.args)
  static flags = oclifFlags(CONFIG_HASH_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ConfigHash)
    await runConfigHash({ ...flags, ...args }, this.session)
  }
}
