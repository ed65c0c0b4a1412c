/** The exit-code contract, in one place (README "Exit codes" mirrors it). */
export const ExitCode = {
  Clean: 0,
  Findings: 1,
  Usage: 2,
  Incomplete: 3,
} as const
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode]

/** Why a read of a cluster failed, said where it failed: the exit code and a report's unread lines follow from it, never from the words. */
export type ReadFailure = 'forbidden' | 'unauthorized' | 'not-found' | 'timeout' | 'unreachable' | 'tls' | 'error'

/**
 * An error whose message is meant for the user: one line saying what is wrong,
 * and a hint saying what to do. Anything else that escapes is a bug of the tool.
 */
export class UserError extends Error {
  readonly hint?: string

  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.Usage,
    hint?: string,
    /** A read that failed says why, where it failed (an unreadable cluster of several becomes a report line with it). */
    readonly reason?: ReadFailure,
  ) {
    // A line break in one came with a name from a bundle or a cluster: it is shown, not obeyed, so the
    // message stays the one line the CLI prints (reportFailure prints the first line of other errors).
    super(oneLine(message))
    this.hint = hint === undefined ? undefined : oneLine(hint)
    this.name = 'UserError'
  }
}

const oneLine = (text: string) => text.replace(/\r?\n/g, '\\n')

/** Input the user gave us is wrong (bad flag value, unknown node, unreadable bundle). */
export const usageError = (message: string, hint?: string) => new UserError(message, ExitCode.Usage, hint)

/** The cluster could not be read well enough to establish health. */
export const incompleteError = (message: string, hint?: string, reason: ReadFailure = 'error') => new UserError(message, ExitCode.Incomplete, hint, reason)

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
