import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { DESCRIBE_COMMAND, runDescribe } from '../../../commands/describe.js'

export default class Describe extends KubeCommand {
  static summary = DESCRIBE_COMMAND.summary
  static examples = [...DESCRIBE_COMMAND.examples]
  static args = oclifArgs(DESCRIBE_COMMAND.args)
  static flags = oclifFlags(DESCRIBE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Describe)
    await runDescribe({ ...flags, ...args }, this.session)
  }
}
