import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { STATUS_COMMAND, runStatus } from '../../../commands/status.js'

export default class Status extends KubeCommand {
  static summary = 'Show nodes the way kubectl get does: phase, chain, height, pod readiness, restarts and config-hash state'
  static description =
    "Without NAME, --set or -A it lists every node in the namespace, as kubectl get does. -o wide adds the rest of the server columns (IP, validator, bond status, jailed, data usage), Pod recreations, and what the nodes themselves say (live height, age of the last block, peers, catching up), read from each running Pod's CometBFT RPC on 26657 through a port-forward."
  static examples = [
    '<%= config.bin %> status fullnode-0 -n cosmos',
    '<%= config.bin %> status -n cosmos -w',
    '<%= config.bin %> status -A -l validator=true -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o wide',
    '<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o yaml',
    `<%= config.bin %> status --bundle examples/bundles/healthy.tgz -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.latestHeight}{"\\n"}{end}'`,
  ]
  static args = oclifArgs(STATUS_COMMAND.args)
  static flags = oclifFlags(STATUS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Status)
    await runStatus({ ...flags, ...args }, this.session)
  }
}
