import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_MUTEX_COMMAND, runPprofMutex } from '../../../../commands/pprof.js'

export default class PprofMutex extends KubeCommand {
  static summary = 'Capture mutex contention in node-utils (when its mutex profile fraction is set) and print the top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically. --growth takes a second capture after the interval and shows what grew."
  static examples = ['<%= config.bin %> pprof mutex fullnode-0 -n cosmos']
  static args = oclifArgs(PPROF_MUTEX_COMMAND.args)
  static flags = oclifFlags(PPROF_MUTEX_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofMutex)
    await runPprofMutex({ ...flags, ...args }, this.session)
  }
}
