import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_ALLOCS_COMMAND, runPprofAllocs } from '../../../../commands/pprof.js'

export default class PprofAllocs extends KubeCommand {
  static summary = PPROF_ALLOCS_COMMAND.summary
  static description = PPROF_ALLOCS_COMMAND.description
  static examples = [...PPROF_ALLOCS_COMMAND.examples]
  static args = oclifArgs(PPROF_ALLOCS_COMMAND.args)
  static flags = oclifFlags(PPROF_ALLOCS_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofAllocs)
    await runPprofAllocs({ ...flags, ...args }, this.session)
  }
}
