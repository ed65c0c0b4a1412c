import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { DOCTOR_COMMAND, runDoctor } from '../../../commands/doctor.js'

export default class Doctor extends KubeCommand {
  static summary = 'Run the whole diagnostic procedure and say what is wrong, why, and what to do'
  static description = `Reads the ChainNode, its Pod, Events, logs, storage, signer and the operator in one pass, then matches every rule of the symptom catalogue (chainnode rules).

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input error, 3 incomplete (unreachable, forbidden or timed-out reads).`
  static examples = [
    '<%= config.bin %> doctor fullnode-0 -n cosmos',
    '<%= config.bin %> doctor --set cosmoshub -n cosmos -o markdown',
    '<%= config.bin %> doctor -A --fail-on warning -o junit > doctor.xml',
    '<%= config.bin %> doctor --bundle examples/bundles/signer-discovery-timeout.tgz',
  ]
  static args = oclifArgs(DOCTOR_COMMAND.args)
  static flags = oclifFlags(DOCTOR_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Doctor)
    process.exitCode = await runDoctor({ ...flags, name: args.name }, this.session)
  }
}
