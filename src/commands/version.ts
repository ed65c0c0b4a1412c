import { ExitCode } from '../util/errors.js'
import { structured } from '../render/structured.js'
import { defineCommand, GLOBAL_FLAGS, outputSpec, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'
import { userAgent } from '../util/user-agent.js'

export const VERSION_COMMAND = defineCommand({
  summary: 'Print the version of kubectl-chainnode (the same as --version)',
  examples: ['<%= config.bin %> version', '<%= config.bin %> version -o json'],
  args: {},
  flags: { ...GLOBAL_FLAGS, output: outputSpec(['text', 'json', 'yaml']) },
})

export async function runVersion(input: InputOf<typeof VERSION_COMMAND>, session: Session): Promise<ExitCode> {
  if (input.output === 'text') session.output.print(userAgent(session.version))
  else
    session.output.print(
      structured(input.output, { name: 'kubectl-chainnode', version: session.version, platform: process.platform, arch: process.arch, node: process.version }),
    )
  return ExitCode.Clean
}
