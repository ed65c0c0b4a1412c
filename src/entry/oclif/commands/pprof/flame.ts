import { oclifArgs, oclifFlags } from '../../oclif-flags.js'
import { BaseCommand } from '../../command.js'
import { PPROF_FLAME_COMMAND, runPprofFlame } from '../../../../commands/pprof.js'

export default class PprofFlame extends BaseCommand {
  static summary = 'Draw a saved profile as a flame graph: a self-contained page with search and zoom, or an SVG picture'
  static description =
    'Each frame is as wide as the samples under it, callers above callees, children widest first; the widest frame under the root is the function with the most samples (pprof top --cum). The page loads nothing from the network: open it in any browser, type a regexp to highlight functions and see their share, click a frame to zoom, Esc to reset.'
  static examples = [
    '<%= config.bin %> pprof flame examples/profiles/cpu.pb.gz -o cpu.html',
    '<%= config.bin %> pprof flame examples/profiles/heap.pb.gz --sample-index alloc_space -o allocs.svg',
    '<%= config.bin %> pprof flame examples/profiles/leak-after.pb.gz --focus leakyCache -o leak.html',
  ]
  static args = oclifArgs(PPROF_FLAME_COMMAND.args)
  static flags = oclifFlags(PPROF_FLAME_COMMAND.flags)

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofFlame)
    await runPprofFlame({ ...flags, ...args }, this.session)
  }
}
