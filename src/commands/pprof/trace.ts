import { Flags } from '@oclif/core'
import { PprofCaptureCommand } from '../../base/pprof-capture-command.js'

export default class PprofTrace extends PprofCaptureCommand {
  static summary = 'Capture a Go execution trace of node-utils for --seconds'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
  static examples = ['<%= config.bin %> pprof trace fullnode-0 -n cosmos --seconds 3']
  static args = PprofCaptureCommand.captureArgs
  static flags = {
    ...PprofCaptureCommand.captureFlags,
    seconds: Flags.integer({ description: 'tracing duration', default: 5 }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofTrace)
    await this.capture('trace', args.name, flags)
  }
}
