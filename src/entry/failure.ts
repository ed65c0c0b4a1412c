import { ExitCode, UserError } from '../util/errors.js'
import { writeStderr } from '../util/output.js'

/**
 * The one place where an error becomes a single line on stderr and an exit code (see ExitCode);
 * the stack only with --debug. Errors this does not know are bugs of the tool, said as such.
 */
export function reportFailure(error: Error, debug: boolean, known = exitCodeOf(error), hint = hintOf(error)): ExitCode {
  if (known === undefined || debug || process.argv.includes('--debug')) writeStderr(`${error.stack ?? error.message}\n`)
  if (known === undefined) {
    writeStderr(`error: internal error of kubectl-chainnode: ${error.message.split('\n')[0]} (rerun with --debug and report it)\n`)
    return ExitCode.Usage
  }
  const message = (error.message.split('\n').find((line) => line.trim() !== '') ?? error.message).trim()
  // Messages quote names and values from bundles and clusters: the guard keeps them from driving the terminal.
  writeStderr(`error: ${hint ? `${message}; ${hint}` : message}\n`)
  return known
}

function exitCodeOf(error: Error): ExitCode | undefined {
  if (error instanceof UserError) return error.exitCode
  // A file that is not a profile, or a sample index it lacks, is bad input.
  if (error.name === 'ProfileFormatError' || error.name === 'ProfileUsageError') return ExitCode.Usage
  // Pod port 6666 did not give a profile: what was asked could not be read.
  if (error.name === 'CaptureError') return ExitCode.Incomplete
  return undefined
}

const hintOf = (error: Error) => (error instanceof UserError ? error.hint : undefined)
