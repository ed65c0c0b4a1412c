import { KUBE_FLAGS } from '../../commands/flag-spec.js'
import { BaseCommand } from './command.js'
import { oclifFlags } from './oclif-flags.js'

/** Flags kubectl would own; kubectl passes none to a plugin, so they come after the command name. */
export abstract class KubeCommand extends BaseCommand {
  static override baseFlags = { ...BaseCommand.baseFlags, ...oclifFlags(KUBE_FLAGS) }

  protected override async finally(error: Error | undefined): Promise<unknown> {
    this.session.close()
    return super.finally(error)
  }
}
