import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { COLLECT_COMMAND, runCollect } from '../../../commands/collect.js'

export default class Collect extends KubeCommand {
  static summary = COLLECT_COMMAND.summary
  static description = COLLECT_COMMAND.description
  static examples = [...COLLECT_COMMAND.examples]
  static args = oclifArgs(COLLECT_COMMAND.args)
  static flags = oclifFlags(COLLECT_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Collect)
    await runCollect({ ...flags, ...args }, this.session)
  }
}
