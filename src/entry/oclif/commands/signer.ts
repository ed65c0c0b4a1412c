import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { SIGNER_COMMAND, runSigner } from '../../../commands/signer.js'

export default class Signer extends KubeCommand {
  static summary = SIGNER_COMMAND.summary
  static description = SIGNER_COMMAND.description
  static examples = [...SIGNER_COMMAND.examples]
  static args = oclifArgs(SIGNER_COMMAND.args)
  static flags = oclifFlags(SIGNER_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Signer)
    await runSigner({ ...flags, ...args }, this.session)
  }
}
