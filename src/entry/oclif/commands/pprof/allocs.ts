import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_ALLOCS_COMMAND, runPprofAllocs } from '../../../../commands/pprof.js'

export default class PprofAllocs extends KubeCommand {
  static summary = 'Capture the allocations of node-utils since it started and print their top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically. --growth takes a second capture after the interval and shows what grew."
  static examples = ['<%= config.bin %> pprof allocs fullnode-0 -n cosmos']
  static args = oclifArgs(PPROF_ALLOCS_COMMAND.args)
  static flags = oclifFlags(PPROF_ALLOCS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofAllocs)
    await runPprofAllocs({ ...flags, ...args }, this.session)
  }
}
