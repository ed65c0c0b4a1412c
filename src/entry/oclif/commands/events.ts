import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { EVENTS_COMMAND, runEvents } from '../../../commands/events.js'

export default class Events extends KubeCommand {
  static summary = EVENTS_COMMAND.summary
  static description = EVENTS_COMMAND.description
  static examples = [...EVENTS_COMMAND.examples]
  static args = oclifArgs(EVENTS_COMMAND.args)
  static flags = oclifFlags(EVENTS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Events)
    await runEvents({ ...flags, ...args }, this.session)
  }
}
