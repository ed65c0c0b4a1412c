import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_MUTEX_COMMAND, runPprofMutex } from '../../../../commands/pprof.js'

export default class PprofMutex extends KubeCommand {
  static summary = PPROF_MUTEX_COMMAND.summary
  static description = PPROF_MUTEX_COMMAND.description
  static examples = [...PPROF_MUTEX_COMMAND.examples]
  static args = oclifArgs(PPROF_MUTEX_COMMAND.args)
  static flags = oclifFlags(PPROF_MUTEX_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofMutex)
    await runPprofMutex({ ...flags, ...args }, this.session)
  }
}
