import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_HEAP_COMMAND, runPprofHeap } from '../../../../commands/pprof.js'

export default class PprofHeap extends KubeCommand {
  static summary = PPROF_HEAP_COMMAND.summary
  static description = PPROF_HEAP_COMMAND.description
  static examples = [...PPROF_HEAP_COMMAND.examples]
  static args = oclifArgs(PPROF_HEAP_COMMAND.args)
  static flags = oclifFlags(PPROF_HEAP_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofHeap)
    await runPprofHeap({ ...flags, ...args }, this.session)
  }
}
