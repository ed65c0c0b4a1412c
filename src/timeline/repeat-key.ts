import { mayNeedHexOrSpacePass } from './collapse.js'

/**
 * Repeats of an Event found by a hash of their normalised text (collapse.ts normaliseForGrouping), computed without
 * building that text: a node's 200,000 Events each cost one loop over their message, and no string. Only the
 * common case is hashed this way: a message whose only variable parts are numbers (no "-", nothing the hex or
 * space passes would look at); any other message is normalised as a string, as before.
 */

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

/** The running FNV-1a state after `text` (UTF-16 code units), from `state`. */
export function hashChars(state: number, text: string): number {
  let h = state
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME)
  return h
}

/** A running state as a map key: a small non-negative integer, below SAME_AS_EXPECTED (never -1: plainKey's "none"). */
const finish = (state: number) => state & 0x3fffffff

/** plainKey's hash, without its flag. */
export const hashOf = (key: number) => key & 0x3fffffff

/** The key of a normalised text: plainKey gives the same hash for a message whose normalised text this is. */
export const hashOfNormalised = (normalised: string): number => finish(hashChars(FNV_OFFSET, normalised))

// What each ASCII character is to the loop below; anything outside 32..126 is OTHER_PASS.
const PLAIN = 0
const DIGIT = 1
const HEX_LETTER = 2
const SPACE = 3
const X = 4
const OTHER_PASS = 5
const CLASS = new Uint8Array(128).fill(OTHER_PASS)
for (let c = 32; c < 127; c++)
  CLASS[c] =
    c >= 48 && c <= 57
      ? DIGIT
      : (c >= 97 && c <= 102) || (c >= 65 && c <= 70)
        ? HEX_LETTER
        : c === 32
          ? SPACE
          : c === 120 || c === 88
            ? X
            : c === 45
              ? OTHER_PASS // "-": the uuid and time passes
              : PLAIN

const LESS = 60 // <
const N = 110 // n
const MORE = 62 // >
const DOT = 46

const isDigit = (c: number) => c >= 48 && c <= 57

/** plainKey's flag: the message's normalised text is the one expected. */
export const SAME_AS_EXPECTED = 0x40000000

/**
 * One loop over a message that follows a plain prefix (isPlainPrefix), from the prefix's hash state: the hash of
 * normaliseForGrouping(prefix + message) (hashOfNormalised of it) computed without building it; or, given an
 * `expected` normalised text (compared from `at`, its prefix's length; -1: nothing expected), SAME_AS_EXPECTED alone
 * when the message's is that text (nothing hashed: a node's next Event is most often a repeat of its last), else the
 * hash, from a second loop.
 * -1 when normalising the message takes more than its numbers: a "-", what mayNeedHexOrSpacePass looks at (eight hex
 * digits in a row, "0x", a space that is not " " or two in a row, anything beyond ASCII), no text, or a space at
 * either end. Numbers (\d+(\.\d+)?) are "<n>"; every other character is itself.
 */
export function plainKey(message: string, prefixState: number, expected = '', at = -1): number {
  const length = message.length
  if (length === 0 || message.charCodeAt(0) === 32 || message.charCodeAt(length - 1) === 32) return -1
  let h = prefixState
  // Where `expected` is compared next; -1: nothing expected, the text is hashed.
  let j = at
  // What mayNeedHexOrSpacePass counts: hex digits in a row (digits are hex digits), and whether a space was last.
  let hexRun = 0
  let afterSpace = false
  for (let i = 0; i < length; i++) {
    const c = message.charCodeAt(i)
    const kind = c < 128 ? CLASS[c] : OTHER_PASS
    if (kind === DIGIT) {
      if (j < 0) h = Math.imul(Math.imul(Math.imul(h ^ LESS, FNV_PRIME) ^ N, FNV_PRIME) ^ MORE, FNV_PRIME)
      else if (expected.charCodeAt(j) === LESS && expected.charCodeAt(j + 1) === N && expected.charCodeAt(j + 2) === MORE) j += 3
      else return plainKey(message, prefixState)
      if (++hexRun >= 8) return -1
      // The rest of the number: more digits, then a dot and digits (the dot ends the run of hex digits).
      let next = 0
      while (i + 1 < length && isDigit((next = message.charCodeAt(i + 1)))) {
        if (++hexRun >= 8) return -1
        i++
      }
      if (next === DOT && i + 2 < length && isDigit(message.charCodeAt(i + 2))) {
        hexRun = 0
        for (i++; i + 1 < length && isDigit(message.charCodeAt(i + 1)); i++) if (++hexRun >= 8) return -1
      }
      afterSpace = false
      continue
    }
    if (kind === PLAIN) {
      hexRun = 0
      afterSpace = false
    } else if (kind === HEX_LETTER) {
      if (++hexRun >= 8) return -1
      afterSpace = false
    } else if (kind === SPACE) {
      if (afterSpace) return -1
      afterSpace = true
      hexRun = 0
    } else if (kind === X) {
      // "0x": the character before is the number's last digit, or not a digit.
      if (i > 0 && message.charCodeAt(i - 1) === 48) return -1
      hexRun = 0
      afterSpace = false
    } else return -1
    if (j < 0) h = Math.imul(h ^ c, FNV_PRIME)
    else if (expected.charCodeAt(j) === c) j++
    else return plainKey(message, prefixState)
  }
  if (j < 0) return finish(h)
  return j === expected.length ? SAME_AS_EXPECTED : plainKey(message, prefixState)
}

/**
 * Whether `prefix` (an Event's "reason: ") is its own normalised form whatever message follows it: no digit, no "-",
 * nothing the hex or space passes look at, no space first, and ": " last (so no run of hex digits or spaces goes on
 * into the message). Then plainKey may continue from its state.
 */
export function isPlainPrefix(prefix: string): boolean {
  return prefix.endsWith(': ') && !/[\d-]/.test(prefix) && !mayNeedHexOrSpacePass(prefix) && !prefix.startsWith(' ')
}

export const prefixState = (prefix: string): number => hashChars(FNV_OFFSET, prefix)
