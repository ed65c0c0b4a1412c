import { ExitCode } from '../util/errors.js'
import { writeStderr } from '../util/output.js'

/**
 * Report a run the event loop gives up on: a promise that can never settle would otherwise let Node end
 * the process quietly with exit code 0 and no output. It exits as incomplete instead, saying so.
 */
export function reportIfAbandoned<T>(run: Promise<T>): Promise<T> {
  let settled = false
  process.once('beforeExit', () => {
    if (settled) return
    writeStderr('error: the run ended before it finished: a read never completed\nhint: rerun with --debug to see which\n')
    process.exitCode = ExitCode.Incomplete
  })
  return run.finally(() => (settled = true))
}
