import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { LOGS_COMMAND, runLogs } from '../../../commands/logs.js'

export default class Logs extends KubeCommand {
  static summary = 'Logs of a node: the chain binary, node-utils, the signer gate, or the operator'
  static description =
    '`-c app` is the chain binary whatever its container is called (app on the 5.0.0 line, the binary name before); `-c gate` is wait-cosmosigner-discovery.'
  static examples = [
    '<%= config.bin %> logs fullnode-0 -n cosmos',
    '<%= config.bin %> logs fullnode-0 -c node-utils --grep profil',
    '<%= config.bin %> logs fullnode-0 -c all --previous',
    '<%= config.bin %> logs fullnode-0 -c operator --since 10m',
    '<%= config.bin %> logs stuck-0 --bundle examples/bundles/not-syncing.tgz --since 15m --tail 5',
  ]
  static args = oclifArgs(LOGS_COMMAND.args)
  static flags = oclifFlags(LOGS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logs)
    process.exitCode = await runLogs({ ...flags, ...args }, this.session)
  }
}
