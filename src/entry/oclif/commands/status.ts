import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { STATUS_COMMAND, runStatus } from '../../../commands/status.js'

export default class Status extends KubeCommand {
  static summary = STATUS_COMMAND.summary
  static description = STATUS_COMMAND.description
  static examples = [...STATUS_COMMAND.examples]
  static args = oclifArgs(STATUS_COMMAND.args)
  static flags = oclifFlags(STATUS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status)
    await runStatus({ ...flags, ...args }, this.session)
  }
}
