/**
 * The quick start of one command: a command line that needs no help text and no framework runs here,
 * without loading oclif. On a short run, loading the framework costs more than reading the cluster.
 * scripts/bundle.mjs bundles quickStart with each command of quick-commands.ts into its own file; the
 * entry point (main.ts) loads the one the line names, and falls back to oclif when it answers false.
 */
import type { ExitCode } from '../util/errors.js'
import { reportFailure } from './failure.js'
import { flagValues, type CommandSpec, type InputOf } from '../commands/flag-spec.js'
import { parseCommandLine } from './parse-argv.js'
import { Session } from '../commands/session.js'

/** What only the entry point knows: the version, and where package.json and docs/ are. */
export interface QuickContext {
  version: string
  root: string
}

export type QuickStart = (argv: string[], context: QuickContext) => Promise<boolean>

/** The words after the command's name, parsed by its spec, then its runner; false when oclif must read the line. */
export function quickStart<C extends CommandSpec>(spec: C, run: (input: InputOf<C>, session: Session) => Promise<ExitCode>): QuickStart {
  return async (argv, { version, root }) => {
    const parsed = parseCommandLine(argv, spec)
    if (!parsed) return false
    const session = new Session(version, root)
    try {
      await session.output.setup(parsed)
      const code = await run(flagValues(spec, parsed), session)
      process.exitCode = code
    } catch (error) {
      process.exitCode = reportFailure(error as Error, session.output.debugEnabled)
    } finally {
      session.close()
    }
    return true
  }
}
