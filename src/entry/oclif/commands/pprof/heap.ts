import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_HEAP_COMMAND, runPprofHeap } from '../../../../commands/pprof.js'

export default class PprofHeap extends KubeCommand {
  static summary = 'Capture a heap profile of node-utils (or, with --target chain, of the chain process) and print its top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically. --growth takes a second heap profile after the interval and shows what grew, in use and allocated (go tool pprof -diff_base)."
  static examples = [
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos',
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos --growth 60s',
    '<%= config.bin %> pprof heap fullnode-0 -n cosmos --target chain --growth 60s',
  ]
  static args = oclifArgs(PPROF_HEAP_COMMAND.args)
  static flags = oclifFlags(PPROF_HEAP_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofHeap)
    await runPprofHeap({ ...flags, ...args }, this.session)
  }
}
