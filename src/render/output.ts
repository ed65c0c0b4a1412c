import { install as installInterruptHandler } from '../util/cleanup.js'
import { allowColour, writeStderr, writeStdout, type OutputFormat } from '../util/output.js'
import { colorWanted, makePalette, plainPalette, type Palette } from './palette.js'
import { progress, type Progress } from './progress.js'

/** The one flag that can put a key into a public ticket says so where a reader looks. */
export const UNREDACTED_WARNING = '--no-redact: keys, tokens, mnemonics and passwords are shown as they are; do not share this output'
export const UNREDACTED_MARK = '[UNREDACTED: --no-redact was given; secrets in this output are not masked]'

/** What decides how a run writes: colour, debug lines, and whether secrets are shown. */
export interface OutputFlags {
  'no-color'?: boolean
  debug?: boolean
  'no-redact'?: boolean
}

/**
 * Everything a run writes, through the output guard (util/output.ts): the report on stdout, debug lines, warnings
 * and the spinner on stderr, in colour only where it is wanted. Both readers of a command line set it up from the
 * parsed flags before the command runs.
 */
export class Output {
  palette: Palette = plainPalette
  debugEnabled = false
  /** --no-redact was given: said once on stderr, and text output says so on its first line. */
  private unredacted: 'no' | 'unmarked' | 'marked' = 'no'

  async setup(flags: OutputFlags): Promise<void> {
    // Ctrl-C at any stage must leave no partial file, listener or port-forward behind.
    installInterruptHandler()
    this.debugEnabled = Boolean(flags.debug) || Boolean(process.env.KUBECTL_CHAINNODE_DEBUG)
    this.palette = await makePalette(colorWanted(process.stdout, Boolean(flags['no-color'])))
    allowColour(this.palette.enabled)
    if (flags['no-redact'] && this.unredacted === 'no') {
      this.unredacted = 'unmarked'
      writeStderr(`warning: ${UNREDACTED_WARNING}\n`)
    }
  }

  debugLine(text: string): void {
    if (this.debugEnabled) writeStderr(`debug: ${text}\n`)
  }

  /** A spinner on stderr while something is read (a terminal only). */
  progress(text: string): Promise<Progress> {
    return progress(text)
  }

  /** Write to stdout through the output guard; JSON and XML stay exact and parseable. */
  print(text: string, format: OutputFormat = 'text'): void {
    const marked = format === 'text' && this.unredacted === 'unmarked' ? `${UNREDACTED_MARK}\n${text}` : text
    if (marked !== text) this.unredacted = 'marked'
    writeStdout(marked.endsWith('\n') ? marked : `${marked}\n`, format)
  }
}
