import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_PROFILE_COMMAND, runPprofProfile } from '../../../../commands/pprof.js'

export default class PprofProfile extends KubeCommand {
  static summary = PPROF_PROFILE_COMMAND.summary
  static description = PPROF_PROFILE_COMMAND.description
  static examples = [...PPROF_PROFILE_COMMAND.examples]
  static args = oclifArgs(PPROF_PROFILE_COMMAND.args)
  static flags = oclifFlags(PPROF_PROFILE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofProfile)
    await runPprofProfile({ ...flags, ...args }, this.session)
  }
}
