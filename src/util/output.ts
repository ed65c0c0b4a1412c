/**
 * The one way out to the terminal. Text from a cluster, a bundle, a profile or the environment is written
 * by someone else: printed raw, an escape sequence in it could write the clipboard (OSC 52), clear the
 * screen, set the window title, fake colours, or a carriage return or bidi override could make a line read
 * differently from what it is. Renderers make such characters visible value by value (render/visible.ts,
 * which is this file's showControls); every write to stdout or stderr then goes through writeStdout or
 * writeStderr here, which apply the same guard to the whole text, so a renderer that forgets cannot leak.
 * eslint.config.js and test/unit/output-guard.test.ts refuse a raw process.stdout/stderr write or console
 * call anywhere else.
 */
import { asInvoked } from './invocation.js'

/**
 * C0 controls but tab and newline, DEL, C1 controls (0x9b is a one-byte CSI), and the bidirectional
 * overrides and isolates (kubectl shows such characters since CVE-2021-25743).
 */
// eslint-disable-next-line no-control-regex
export const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/** How a hidden character is shown in text: ESC as ^[, a carriage return as \r, U+009B as \u009b. */
export function showControl(char: string): string {
  const code = char.charCodeAt(0)
  if (char === '\r') return '\\r'
  if (code < 0x20) return `^${String.fromCharCode(code + 0x40)}`
  if (code === 0x7f) return '^?'
  return `\\u${code.toString(16).padStart(4, '0')}`
}

/** The text with every control character made visible. */
export function showControls(text: unknown): string {
  const value = typeof text === 'string' ? text : text === undefined || text === null ? '' : String(text)
  HIDDEN.lastIndex = 0
  return HIDDEN.test(value) ? value.replace(HIDDEN, showControl) : value
}

/**
 * What is printed: text (and Markdown) shows controls as ^[ and \uXXXX; JSON escapes them as \uXXXX, which
 * JSON reads back as the same character (JSON.stringify escapes C0 itself, not DEL, C1 or bidi controls);
 * XML writes them as character references (the XML writer has already dropped what XML 1.0 forbids).
 */
export type OutputFormat = 'text' | 'json' | 'xml'

/** The colour sequences of render/palette.ts (chalk level 1): bold, its end, the eight colours, gray, the default. */
// eslint-disable-next-line no-control-regex
const PALETTE_SGR = /^\u001b\[(?:1|22|3[0-7]|39|90)m$/
// eslint-disable-next-line no-control-regex
const SGR_OR_HIDDEN = /\u001b\[[0-9]{1,2}m|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

let colour = false

/** Whether the palette's colour sequences may pass (set once per run, from the palette's choice). */
export function allowColour(enabled: boolean): void {
  colour = enabled
}

/** The text as it may be written: nothing in it can drive a terminal but the palette's colours when colour is on. */
export function guarded(text: string, format: OutputFormat = 'text', withColour = colour): string {
  HIDDEN.lastIndex = 0
  if (!HIDDEN.test(text)) return text
  if (format === 'json') return text.replace(HIDDEN, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
  if (format === 'xml') return text.replace(HIDDEN, (char) => `&#x${char.charCodeAt(0).toString(16)};`)
  if (!withColour) return text.replace(HIDDEN, showControl)
  return text.replace(SGR_OR_HIDDEN, (match) => (match.length > 1 ? (PALETTE_SGR.test(match) ? match : `^[${match.slice(1)}`) : showControl(match)))
}

/** Write to stdout, guarded; text (not JSON or XML, which programs read) names commands as the user invoked us. */
export function writeStdout(text: string, format: OutputFormat = 'text', done?: () => void): void {
  process.stdout.write(guarded(format === 'text' ? asInvoked(text) : text, format), done)
}

/** Write to stderr (errors, warnings, debug lines, notices), guarded, its hints as the user invoked us. */
export function writeStderr(text: string, done?: () => void): void {
  process.stderr.write(guarded(asInvoked(text)), done)
}

/** The guard's format for a command's -o value: json and junit are parsed by programs, the rest is read. */
export const outputFormatOf = (output: string): OutputFormat => (output === 'json' ? 'json' : output === 'junit' ? 'xml' : 'text')
