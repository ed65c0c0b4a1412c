import { outputFlag, BaseCommand } from '../../base/command.js'
import { columns } from '../../render/columns.js'
import { docsPath } from '../../rules/docs.js'
import { RULES } from '../../rules/index.js'

export default class Rules extends BaseCommand {
  static summary = 'List the diagnostic rules doctor runs'
  static examples = ['<%= config.bin %> rules', '<%= config.bin %> rules -o json', '<%= config.bin %> rules explain image-pull']
  static flags = { output: outputFlag(['text', 'json']) }

  async run(): Promise<void> {
    const { flags } = await this.parse(Rules)
    await this.setupOutput(flags)
    const catalogue = RULES.map((rule) => ({
      id: rule.id,
      severity: rule.severity,
      title: rule.title,
      specRow: rule.specRow,
      // The container logs the rule reads: doctor reads these and no others.
      logs: rule.logs ?? [],
      docs: docsPath(rule.id),
    }))
    if (flags.output === 'json') this.print(JSON.stringify({ schemaVersion: 1, kind: 'RuleCatalogue', rules: catalogue }, null, 2))
    else
      this.print(
        columns(
          ['id', 'severity', 'title'],
          catalogue.map((r) => [r.id, r.severity, r.title]),
        ),
      )
  }
}
