import { Flags } from '@oclif/core'
import { PprofCaptureCommand } from '../../base/pprof-capture-command.js'

export default class PprofProfile extends PprofCaptureCommand {
  static summary = 'Capture a CPU profile of node-utils for --seconds and print its top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
  static examples = ['<%= config.bin %> pprof profile fullnode-0 -n cosmos --seconds 10']
  static args = PprofCaptureCommand.captureArgs
  static flags = {
    ...PprofCaptureCommand.captureFlags,
    seconds: Flags.integer({ description: 'CPU sampling duration', default: 30 }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofProfile)
    await this.capture('profile', args.name, flags)
  }
}
