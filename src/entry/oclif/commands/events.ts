import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { EVENTS_COMMAND, runEvents } from '../../../commands/events.js'

export default class Events extends KubeCommand {
  static summary = 'Events about nodes and everything they own, newest last, repeats collapsed'
  static description =
    'Without NAME, --set or -A, the Events of every node in the namespace, as kubectl get events lists the namespace. Sorted by series.lastObservedTime, then lastTimestamp, then eventTime, then creation time (events with null timestamps included).'
  static examples = [
    '<%= config.bin %> events fullnode-0 -n cosmos',
    '<%= config.bin %> events fullnode-0 --for pod/fullnode-0 -w',
    '<%= config.bin %> events -o json',
    '<%= config.bin %> events pull-0 --bundle examples/bundles/image-pull.tgz --for pod/pull-0',
    '<%= config.bin %> events --bundle examples/bundles/healthy.tgz -l nodeset=hub -o yaml',
  ]
  static args = oclifArgs(EVENTS_COMMAND.args)
  static flags = oclifFlags(EVENTS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Events)
    await runEvents({ ...flags, ...args }, this.session)
  }
}
