import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { SIGNER_COMMAND, runSigner } from '../../../commands/signer.js'

export default class Signer extends KubeCommand {
  static summary = 'Check the remote signer path of a node end to end: discovery, probes, the 26659 gate, versions, legacy signer'
  static description = `Finds the signer behind the node's discovery Service, probes /livez and /readyz on port 8080 of every instance (not on the 3.x line, whose signer has no HTTP health endpoints) and tests the discovery gate on TCP 26659 (data must arrive; a bare connection is not a pass), each through a port-forward. Exit code 1 when a problem is found.`
  static examples = [
    '<%= config.bin %> signer validator-0 -n cosmos',
    '<%= config.bin %> signer validator-0 --no-probe',
    '<%= config.bin %> signer validator-0 --gate-timeout 10s -o json',
    '<%= config.bin %> signer val-0 --bundle examples/bundles/signer-discovery-timeout.tgz',
  ]
  static args = oclifArgs(SIGNER_COMMAND.args)
  static flags = oclifFlags(SIGNER_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Signer)
    await runSigner({ ...flags, ...args }, this.session)
  }
}
