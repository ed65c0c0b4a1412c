import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { PPROF_FLAME_COMMAND, runPprofFlame } from '../../../../commands/pprof.js'

export default class PprofFlame extends BaseCommand {
  static summary = PPROF_FLAME_COMMAND.summary
  static description = PPROF_FLAME_COMMAND.description
  static examples = [...PPROF_FLAME_COMMAND.examples]
  static args = oclifArgs(PPROF_FLAME_COMMAND.args)
  static flags = oclifFlags(PPROF_FLAME_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofFlame)
    await runPprofFlame({ ...flags, ...args }, this.session)
  }
}
