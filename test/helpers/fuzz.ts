/**
 * What the generated (fast-check) tests share: how long each property may run, and the control characters a
 * stranger's text may carry. CI runs the default scale; FUZZ_SCALE=20 hunts longer.
 */
export const FUZZ_SCALE = Math.max(1, Number(process.env.FUZZ_SCALE) || 1)

/** A property's runs and time budget (an interrupted run is no failure: the budget keeps the suite's length). */
export const fuzzLimits = (runs: number, timeLimitMs: number, seed?: number) => ({
  numRuns: runs * FUZZ_SCALE,
  interruptAfterTimeLimit: timeLimitMs * FUZZ_SCALE,
  markInterruptAsFailure: false,
  seed,
})

/** A control character that must never reach a terminal raw (newline and tab may). */
// eslint-disable-next-line no-control-regex
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/

/** Terminal escapes and invisible controls: a clipboard write (OSC 52), a screen clear, a carriage return, bidi overrides. */
export const TERMINAL_CONTROLS = ['\u001b]52;c;cHduZWQ=\u0007', '\u001b[2J', '\r', '\u202e', '\u009b1m', '\u0000', '\u007f', '\u2066', '\u0008']
