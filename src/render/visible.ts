/**
 * Text from a cluster or a bundle (Event messages, log lines, labels, annotations, names, termination
 * messages) is written by someone else: printed raw, an escape sequence in it could clear the screen,
 * set the window title or fake colours. kubectl shows such characters since CVE-2021-25743; so do the
 * text and Markdown renderers, through this one function, applied to each value as it is rendered;
 * src/util/output.ts, where it lives, guards every write to stdout and stderr with it as well.
 * JSON and JUnit output keep the exact text (their encoders escape what needs escaping).
 */

import { showControls } from '../util/output.js'

/** The text with every control character made visible: ESC becomes ^[, a carriage return \r, U+009B \u009b. */
export const visible: (text: unknown) => string = showControls

/** Same, for a value that may be absent (describe prints <none> for those). */
export const visibleOrNone = (text: string | undefined): string | undefined => (text === undefined ? undefined : visible(text))
