import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { KubeCommand } from '../../kube-command.js'
import { PPROF_PROFILE_COMMAND, runPprofProfile } from '../../../../commands/pprof.js'

export default class PprofProfile extends KubeCommand {
  static summary = 'Capture a CPU profile of node-utils for --seconds and print its top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
  static examples = ['<%= config.bin %> pprof profile fullnode-0 -n cosmos --seconds 10']
  static args = oclifArgs(PPROF_PROFILE_COMMAND.args)
  static flags = oclifFlags(PPROF_PROFILE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofProfile)
    await runPprofProfile({ ...flags, ...args }, this.session)
  }
}
