import { Args, Flags } from '@oclif/core'
import { BaseCommand } from '../../base/command.js'
import { usageError } from '../../errors.js'
import { topReport } from '../../services/pprof-report.js'

export default class PprofTop extends BaseCommand {
  static summary = 'Summarise a saved heap or CPU profile like `go tool pprof -top`, without Go'
  static examples = [
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz',
    '<%= config.bin %> pprof top examples/profiles/cpu.pb.gz --top 30 --cum',
    '<%= config.bin %> pprof top examples/profiles/heap.pb.gz --sample-index alloc_space',
  ]
  static args = { file: Args.string({ description: 'saved profile (gzipped or raw pprof protobuf)', required: true }) }
  static flags = {
    top: Flags.integer({ description: 'rows to print', default: 20, min: 1 }),
    'sample-index': Flags.string({ description: 'sample type to show (heap: inuse_space by default; CPU: cpu)' }),
    'node-fraction': Flags.string({ description: 'hide nodes below this fraction of the total (pprof -nodefraction)', default: '0.005' }),
    cum: Flags.boolean({ description: 'sort by cumulative value' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTop)
    await this.setupOutput(flags)
    this.print(
      await topReport({
        file: args.file,
        rows: flags.top,
        sampleIndex: flags['sample-index'],
        nodeFraction: parseFraction(flags['node-fraction']),
        cum: flags.cum,
        onStep: (what) => this.debugLine(`pprof: ${what}, at ${(process.uptime() * 1000).toFixed(0)} ms`),
      }),
    )
  }
}

function parseFraction(text: string): number {
  const value = Number(text)
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw usageError(`--node-fraction "${text}" is not a number between 0 and 1`, 'e.g. --node-fraction 0 to show every function')
  return value
}
