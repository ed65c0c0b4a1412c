import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_BLOCK_COMMAND, runPprofBlock } from '../../../../commands/pprof.js'

export default class PprofBlock extends KubeCommand {
  static summary = PPROF_BLOCK_COMMAND.summary
  static description = PPROF_BLOCK_COMMAND.description
  static examples = [...PPROF_BLOCK_COMMAND.examples]
  static args = oclifArgs(PPROF_BLOCK_COMMAND.args)
  static flags = oclifFlags(PPROF_BLOCK_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofBlock)
    await runPprofBlock({ ...flags, ...args }, this.session)
  }
}
