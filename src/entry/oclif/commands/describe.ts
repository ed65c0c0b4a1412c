import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { DESCRIBE_COMMAND, runDescribe } from '../../../commands/describe.js'

export default class Describe extends KubeCommand {
  static summary = 'Describe a ChainNode and its Pod with their Events, the way kubectl describe does'
  static examples = ['<%= config.bin %> describe fullnode-0 -n cosmos', '<%= config.bin %> describe pull-0 --bundle examples/bundles/image-pull.tgz']
  static args = oclifArgs(DESCRIBE_COMMAND.args)
  static flags = oclifFlags(DESCRIBE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Describe)
    await runDescribe({ ...flags, ...args }, this.session)
  }
}
