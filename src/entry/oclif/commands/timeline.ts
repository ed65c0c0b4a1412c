import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { TIMELINE_COMMAND, runTimeline } from '../../../commands/timeline.js'

export default class Timeline extends KubeCommand {
  static summary = TIMELINE_COMMAND.summary
  static description = TIMELINE_COMMAND.description
  static examples = [...TIMELINE_COMMAND.examples]
  static args = oclifArgs(TIMELINE_COMMAND.args)
  static flags = oclifFlags(TIMELINE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Timeline)
    process.exitCode = await runTimeline({ ...flags, name: args.name }, this.session)
  }
}
