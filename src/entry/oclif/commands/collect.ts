import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { COLLECT_COMMAND, runCollect } from '../../../commands/collect.js'

export default class Collect extends KubeCommand {
  static summary = 'Save everything about nodes into a support bundle that doctor and the other commands can read offline'
  static description =
    'Secret objects are never read; tokens, keys and mnemonics in logs, env values and annotations are masked unless --no-redact is given. The layout is documented in the README.'
  static examples = ['<%= config.bin %> collect fullnode-0 -n cosmos --out incident.tgz', '<%= config.bin %> collect --all -n cosmos --out ./bundle-dir']
  static args = oclifArgs(COLLECT_COMMAND.args)
  static flags = oclifFlags(COLLECT_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Collect)
    await runCollect({ ...flags, ...args }, this.session)
  }
}
