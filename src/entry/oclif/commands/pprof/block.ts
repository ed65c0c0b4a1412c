import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_BLOCK_COMMAND, runPprofBlock } from '../../../../commands/pprof.js'

export default class PprofBlock extends KubeCommand {
  static summary = 'Capture where node-utils blocks on synchronisation (when its block profile rate is set) and print the top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically. --growth takes a second capture after the interval and shows what grew."
  static examples = ['<%= config.bin %> pprof block fullnode-0 -n cosmos']
  static args = oclifArgs(PPROF_BLOCK_COMMAND.args)
  static flags = oclifFlags(PPROF_BLOCK_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofBlock)
    await runPprofBlock({ ...flags, ...args }, this.session)
  }
}
