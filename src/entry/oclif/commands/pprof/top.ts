import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { PPROF_TOP_COMMAND, runPprofTop } from '../../../../commands/pprof.js'

export default class PprofTop extends BaseCommand {
  static summary = 'Summarise a saved profile like `go tool pprof -top`, or what changed since an older one (--base), without Go'
  static examples = [
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz',
    '<%= config.bin %> pprof top examples/profiles/cpu.pb.gz --top 30 --cum',
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz --sample-index alloc_space',
    '<%= config.bin %> pprof top examples/profiles/leak-after.pb.gz --base examples/profiles/leak-before.pb.gz',
    '<%= config.bin %> pprof top examples/profiles/leak-after.pb.gz --focus leakyCache -o json',
  ]
  static args = oclifArgs(PPROF_TOP_COMMAND.args)
  static flags = oclifFlags(PPROF_TOP_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTop)
    await runPprofTop({ ...flags, ...args }, this.session)
  }
}
