import { outputFlag, BaseCommand } from '../base/command.js'
import { structured } from '../render/structured.js'

export default class Version extends BaseCommand {
  static summary = 'Print the version of kubectl-chainnode (the same as --version)'
  static examples = ['<%= config.bin %> version', '<%= config.bin %> version -o json']
  static flags = { output: outputFlag(['text', 'json', 'yaml']) }

  async run(): Promise<void> {
    const { flags } = await this.parse(Version)
    await this.setupOutput(flags)
    const { version, platform, arch } = this.config
    if (flags.output === 'text') return this.print(this.config.userAgent)
    this.print(structured(flags.output as 'json', { name: 'kubectl-chainnode', version, platform, arch, node: process.version }))
  }
}
