import { PprofCaptureCommand } from '../../base/pprof-capture-command.js'

export default class PprofHeap extends PprofCaptureCommand {
  static summary = 'Capture a heap profile of node-utils and print its top table'
  static description =
    "Opens a port-forward through the API server to Pod port 6666, where node-utils serves Go's net/http/pprof; the file is written atomically."
  static examples = ['<%= config.bin %> pprof heap fullnode-0 -n cosmos']
  static args = PprofCaptureCommand.captureArgs
  static flags = {
    ...PprofCaptureCommand.captureFlags,
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PprofHeap)
    await this.capture('heap', args.name, flags)
  }
}
