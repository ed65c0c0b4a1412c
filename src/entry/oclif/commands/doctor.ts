import { oclifArgs, oclifFlags } from '../oclif-flags.js'
import { KubeCommand } from '../kube-command.js'
import { DOCTOR_COMMAND, runDoctor } from '../../../commands/doctor.js'

export default class Doctor extends KubeCommand {
  static summary = DOCTOR_COMMAND.summary
  static description = DOCTOR_COMMAND.description
  static examples = [...DOCTOR_COMMAND.examples]
  static args = oclifArgs(DOCTOR_COMMAND.args)
  static flags = oclifFlags(DOCTOR_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Doctor)
    process.exitCode = await runDoctor({ ...flags, name: args.name }, this.session)
  }
}
