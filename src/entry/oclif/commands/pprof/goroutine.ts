import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_GOROUTINE_COMMAND, runPprofGoroutine } from '../../../../commands/pprof.js'

export default class PprofGoroutine extends KubeCommand {
  static summary = "Capture the goroutines of node-utils (protobuf, or Go's text forms with --text 1|2) and print them by stack"
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically. --growth takes a second capture after the interval and shows what grew."
  static examples = ['<%= config.bin %> pprof goroutine fullnode-0 -n cosmos --text 1', '<%= config.bin %> pprof goroutine fullnode-0 -n cosmos --growth 60s']
  static args = oclifArgs(PPROF_GOROUTINE_COMMAND.args)
  static flags = oclifFlags(PPROF_GOROUTINE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofGoroutine)
    await runPprofGoroutine({ ...flags, ...args }, this.session)
  }
}
