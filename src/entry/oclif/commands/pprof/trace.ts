import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_TRACE_COMMAND, runPprofTrace } from '../../../../commands/pprof.js'

export default class PprofTrace extends KubeCommand {
  static summary = 'Capture a Go execution trace of node-utils for --seconds'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
  static examples = ['<%= config.bin %> pprof trace fullnode-0 -n cosmos --seconds 3']
  static args = oclifArgs(PPROF_TRACE_COMMAND.args)
  static flags = oclifFlags(PPROF_TRACE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTrace)
    await runPprofTrace({ ...flags, ...args }, this.session)
  }
}
