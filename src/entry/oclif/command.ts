import { Command, Errors } from '@oclif/core'
import { GLOBAL_FLAGS } from '../../commands/flag-spec.js'
import { reportFailure } from '../failure.js'
import { Session } from '../../commands/session.js'
import { ExitCode } from '../../util/errors.js'
import { oclifFlags } from './oclif-flags.js'
import { didYouMean } from '../../util/suggest.js'

/**
 * The base of every command: colour, --debug, and the error-to-exit-code mapping, all held by the
 * framework-free Session (src/app/session.ts) that the quick start uses too; oclif's own parse
 * errors are the only ones told apart here.
 */
export abstract class BaseCommand extends Command {
  static override baseFlags = oclifFlags(GLOBAL_FLAGS)

  protected readonly session = new Session(this.config.version, this.config.root)

  protected setupOutput(flags: { 'no-color'?: boolean; debug?: boolean }): Promise<void> {
    return this.session.output.setup(flags)
  }

  protected print(text: string): void {
    this.session.output.print(text)
  }

  protected override async catch(error: Error & { oclif?: { exit?: number } }): Promise<void> {
    // A parse error is handled here; without this oclif warns (outside production) that nothing was parsed.
    this.parsed = true
    if (error instanceof Errors.ExitError) {
      process.exitCode = error.oclif.exit
      return
    }
    // oclif wraps what a flag's own check threw (flag-spec's templated options) as "Parsing --flag \n\t<message>\nSee more help…".
    const wrapped = /^Parsing --[\w-]+ *\n\t(.*)\nSee more help/s.exec(error.message)
    if (wrapped) error.message = wrapped[1]
    // oclif's own parse errors (unknown flag, bad option value, missing argument) are usage errors.
    const parseError = error instanceof Errors.CLIError || error.name === 'CLIError' || /Parse|Flag|Arg/.test(error.constructor.name)
    const missing = missingArgument(error)
    if (missing) {
      const example = (this.ctor.examples?.[0] as string | undefined)?.replace('<%= config.bin %>', this.config.bin)
      process.exitCode = reportFailure(new Error(missing), this.session.output.debugEnabled, ExitCode.Usage, example ? `e.g. ${example}` : 'see --help')
      return
    }
    const flag = nonexistentFlag(error)
    if (flag) {
      const known = Object.keys({ ...this.ctor.baseFlags, ...this.ctor.flags }).map((name) => `--${name}`)
      process.exitCode = reportFailure(
        new Error(`unknown flag: ${flag}`),
        this.session.output.debugEnabled,
        ExitCode.Usage,
        `${didYouMean(flag.split('=')[0], known)}see --help`,
      )
      return
    }
    process.exitCode = parseError
      ? reportFailure(error, this.session.output.debugEnabled, ExitCode.Usage, 'see --help')
      : reportFailure(error, this.session.output.debugEnabled)
  }
}

/** The flag in oclif's "Nonexistent flag: --namespce" (the first, when it names several). */
const nonexistentFlag = (error: Error) => /^Nonexistent flags?: ([^\s,]+)/.exec(error.message)?.[1]

/** oclif's "Missing 1 required arg:\nid  rule id\n..." as one line: "missing ID (rule id)". */
function missingArgument(error: Error): string | undefined {
  const [first, argument] = error.message.split('\n').filter((line) => line.trim() !== '')
  if (!/^Missing \d+ required args?:/.test(first) || !argument) return undefined
  const [name, description] = argument.trim().split(/\s{2,}/)
  return `missing ${name.toUpperCase()}${description ? ` (${description})` : ''}`
}
