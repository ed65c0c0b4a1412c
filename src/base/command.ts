import { Command, Flags, Errors } from '@oclif/core'
import { ExitCode, UserError } from '../errors.js'
import { install as installInterruptHandler } from '../cleanup.js'
import { colorWanted, makePalette, plainPalette, type Palette } from '../palette.js'

export type OutputFormat = 'text' | 'json' | 'markdown' | 'junit'

/** `-o` for a command that supports the given formats. */
export const outputFlag = (formats: OutputFormat[]) => Flags.string({ char: 'o', description: 'output format', options: formats, default: 'text' })

/**
 * The base of every command: colour, --debug, and the single place where errors become one line
 * and an exit code (see ExitCode).
 */
export abstract class BaseCommand extends Command {
  static baseFlags = {
    'no-color': Flags.boolean({ description: 'disable colour (also off with NO_COLOR or when stdout is not a terminal)', helpGroup: 'GLOBAL' }),
    debug: Flags.boolean({ description: 'print request counts, timings and stack traces', helpGroup: 'GLOBAL' }),
  }

  protected palette: Palette = plainPalette
  protected debugEnabled = false

  protected async setupOutput(flags: { 'no-color'?: boolean; debug?: boolean }): Promise<void> {
    // Ctrl-C at any stage must leave no partial file, listener or port-forward behind.
    installInterruptHandler()
    this.debugEnabled = Boolean(flags.debug) || Boolean(process.env.KUBECTL_CHAINNODE_DEBUG)
    this.palette = await makePalette(colorWanted(process.stdout, Boolean(flags['no-color'])))
  }

  protected debugLine(text: string): void {
    if (this.debugEnabled) process.stderr.write(`debug: ${text}\n`)
  }

  /** Write to stdout without oclif's formatting, so output can be piped and parsed. */
  protected print(text: string): void {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`)
  }

  protected async catch(error: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<void> {
    // A parse error is handled here; without this oclif warns (outside production) that nothing was parsed.
    this.parsed = true
    const exit = exitCodeOf(error)
    if (exit === undefined || this.debugEnabled || process.argv.includes('--debug')) {
      process.stderr.write(`${error.stack ?? error.message}\n`)
    }
    if (exit === undefined) {
      process.stderr.write(`error: internal error of kubectl-chainnode: ${error.message.split('\n')[0]} (rerun with --debug and report it)\n`)
      process.exitCode = ExitCode.Usage
      return
    }
    process.stderr.write(`error: ${oneLine(error)}\n`)
    process.exitCode = exit
  }
}

function exitCodeOf(error: Error & { oclif?: { exit?: number } }): number | undefined {
  if (error instanceof UserError) return error.exitCode
  // A file that is not a profile, or a sample index it lacks, is bad input.
  if (error.name === 'ProfileFormatError' || error.name === 'ProfileUsageError') return ExitCode.Usage
  // Pod port 6666 did not give a profile: what was asked could not be read.
  if (error.name === 'CaptureError') return ExitCode.Incomplete
  if (error instanceof Errors.ExitError) return error.oclif.exit
  // oclif's own parse errors (unknown flag, bad option value, missing argument) are usage errors.
  if (error instanceof Errors.CLIError || error.name === 'CLIError' || /Parse|Flag|Arg/.test(error.constructor.name)) return ExitCode.Usage
  return undefined
}

function oneLine(error: Error): string {
  const parseError = !(error instanceof UserError) && (error instanceof Errors.CLIError || error.name === 'CLIError')
  const hint = error instanceof UserError ? error.hint : parseError ? 'see --help' : undefined
  const message = error.message.split('\n').find((line) => line.trim() !== '') ?? error.message
  return hint ? `${message.trim()}; ${hint}` : message.trim()
}
