/**
 * Text from a cluster or a bundle (Event messages, log lines, labels, annotations, names, termination
 * messages) is written by someone else: printed raw, an escape sequence in it could clear the screen,
 * set the window title or fake colours. kubectl shows such characters since CVE-2021-25743; so do the
 * text and Markdown renderers, through this one function, applied to each value as it is rendered.
 * JSON and JUnit output keep the exact text (their encoders escape what needs escaping).
 */

// C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional
// overrides that make text read differently from what it is.
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

function show(char: string): string {
  const code = char.charCodeAt(0)
  if (char === '\r') return '\\r'
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`
  if (code === 0x7f) return '^?'
  return `\\u${code.toString(16).padStart(4, '0')}`
}

/** The text with every control character made visible: ESC becomes ^[, a carriage return \r, U+009B \u009b. */
export function visible(text: unknown): string {
  const value = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text)
  HIDDEN.lastIndex = 0
  return HIDDEN.test(value) ? value.replace(HIDDEN, show) : value
}

/** Same, for a value that may be absent (describe prints <none> for those). */
export const visibleOrNone = (text: string | undefined): string | undefined => (text === undefined ? undefined : visible(text))
