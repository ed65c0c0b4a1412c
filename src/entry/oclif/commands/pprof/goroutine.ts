import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_GOROUTINE_COMMAND, runPprofGoroutine } from '../../../../commands/pprof.js'

export default class PprofGoroutine extends KubeCommand {
  static summary = PPROF_GOROUTINE_COMMAND.summary
  static description = PPROF_GOROUTINE_COMMAND.description
  static examples = [...PPROF_GOROUTINE_COMMAND.examples]
  static args = oclifArgs(PPROF_GOROUTINE_COMMAND.args)
  static flags = oclifFlags(PPROF_GOROUTINE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofGoroutine)
    await runPprofGoroutine({ ...flags, ...args }, this.session)
  }
}
