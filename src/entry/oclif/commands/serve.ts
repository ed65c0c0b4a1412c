import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { SERVE_COMMAND, runServe } from '../../../commands/serve.js'

export default class Serve extends KubeCommand {
  static summary = SERVE_COMMAND.summary
  static description = SERVE_COMMAND.description
  static examples = [...SERVE_COMMAND.examples]
  static args = oclifArgs(SERVE_COMMAND.args)
  static flags = oclifFlags(SERVE_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Serve)
    process.exitCode = await runServe({ ...flags, name: args.name }, this.session)
  }
}
