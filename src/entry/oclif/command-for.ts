import type { Command } from '@oclif/core'
import { flagValues, type CommandSpec, type InputOf } from '../../commands/flag-spec.js'
import type { Session } from '../../commands/session.js'
import type { ExitCode } from '../../util/errors.js'
import { BaseCommand } from './command.js'
import { KubeCommand } from './kube-command.js'
import { oclifArgs, oclifFlags } from './oclif-flags.js'

/** A command's runner, as src/commands/ exports it: an exit code, or none when the run decides nothing. */
export type Runner<C extends CommandSpec> = (input: InputOf<C>, session: Session) => Promise<ExitCode>

/**
 * The oclif class of one command of the registry (src/commands/index.ts): help, arguments and flags from its
 * spec, and a run that hands the parsed line to its runner. A command that takes kubectl's flags reads the
 * cluster, and closes its connections when it ends (KubeCommand).
 */
export function oclifCommandFor<C extends CommandSpec>(spec: C, run: Runner<C>): Command.Class {
  const Base: typeof BaseCommand = 'kubeconfig' in spec.flags ? KubeCommand : BaseCommand
  return class extends Base {
    static override summary = spec.summary
    static override description = spec.description
    static override examples = [...spec.examples]
    static override args = oclifArgs(spec.args)
    static override flags = oclifFlags(spec.flags)

    override async run(): Promise<void> {
      const { args, flags } = await this.parse(this.ctor)
      await this.session.output.setup(flags as Parameters<Session['output']['setup']>[0])
      const code = await run(flagValues(spec, { ...flags, ...args }), this.session)
      process.exitCode = code
    }
  }
}
