import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_TRACE_COMMAND, runPprofTrace } from '../../../../commands/pprof.js'

export default class PprofTrace extends KubeCommand {
  static summary = PPROF_TRACE_COMMAND.summary
  static description = PPROF_TRACE_COMMAND.description
  static examples = [...PPROF_TRACE_COMMAND.examples]
  static args = oclifArgs(PPROF_TRACE_COMMAND.args)
  static flags = oclifFlags(PPROF_TRACE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTrace)
    await runPprofTrace({ ...flags, ...args }, this.session)
  }
}
