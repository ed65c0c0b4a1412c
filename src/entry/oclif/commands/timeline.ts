import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { TIMELINE_COMMAND, runTimeline } from '../../../commands/timeline.js'

export default class Timeline extends KubeCommand {
  static summary = 'What happened to a node, in one chronological list: Events, Pod lifecycle, config changes, operator and node logs, findings'
  static description = `Reads what doctor reads (the same snapshot) and merges it by time; repeats are collapsed as (x3 over 5m). Offline, "now" is the bundle's collection time.

The default window starts a little before the last restart or the first finding, whichever is earlier.`
  static examples = [
    '<%= config.bin %> timeline fullnode-0 -n cosmos',
    '<%= config.bin %> timeline fullnode-0 --since 2h --utc',
    '<%= config.bin %> timeline --set cosmoshub -n cosmos -o markdown > incident.md',
    '<%= config.bin %> timeline stuck-0 --bundle examples/bundles/not-syncing.tgz -o json',
  ]
  static args = oclifArgs(TIMELINE_COMMAND.args)
  static flags = oclifFlags(TIMELINE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Timeline)
    process.exitCode = await runTimeline({ ...flags, name: args.name }, this.session)
  }
}
