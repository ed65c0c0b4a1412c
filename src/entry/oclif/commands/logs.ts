import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { LOGS_COMMAND, runLogs } from '../../../commands/logs.js'

export default class Logs extends KubeCommand {
  static summary = LOGS_COMMAND.summary
  static description = LOGS_COMMAND.description
  static examples = [...LOGS_COMMAND.examples]
  static args = oclifArgs(LOGS_COMMAND.args)
  static flags = oclifFlags(LOGS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Logs)
    process.exitCode = await runLogs({ ...flags, ...args }, this.session)
  }
}
