/** Why a byte string could not be read as a pprof profile. */
export type ProfileFormatErrorCode =
  | 'empty'
  | 'html'
  | 'text'
  | 'go-trace'
  | 'truncated-gzip'
  | 'corrupt-gzip'
  | 'truncated-protobuf'
  | 'invalid-protobuf'
  | 'invalid-profile'
  | 'not-pprof'
  | 'too-large'
  | 'decoded-too-large'

/**
 * The input is not a usable pprof profile. `message` is one line meant for
 * the user as is; `code` is for callers that map errors to exit codes or hints.
 */
export class ProfileFormatError extends Error {
  override readonly name = 'ProfileFormatError'
  constructor(
    readonly code: ProfileFormatErrorCode,
    message: string,
  ) {
    super(message)
  }
}

/**
 * A valid profile was asked for something it does not have, such as a
 * sample index it lacks. `choices` lists what the user may pick instead.
 */
export class ProfileUsageError extends Error {
  override readonly name = 'ProfileUsageError'
  constructor(
    readonly code: 'unknown-sample-index' | 'sample-index-out-of-range' | 'no-sample-types' | 'incompatible-profiles' | 'bad-regexp',
    message: string,
    readonly choices: readonly string[],
  ) {
    super(message)
  }
}
