import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { PPROF_TOP_COMMAND, runPprofTop } from '../../../../commands/pprof.js'

export default class PprofTop extends BaseCommand {
  static summary = PPROF_TOP_COMMAND.summary
  static examples = [...PPROF_TOP_COMMAND.examples]
  static args = oclifArgs(PPROF_TOP_COMMAND.args)
  static flags = oclifFlags(PPROF_TOP_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTop)
    await runPprofTop({ ...flags, ...args }, this.session)
  }
}
