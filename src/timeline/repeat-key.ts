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

/** A running state as a map key: a small non-negative integer, never -1 (plainHash's "none"). */
const finish = (state: number) => state & 0x3fffffff

/** The key of a normalised text: plainHash gives the same for a message whose normalised text this is. */
export const hashOfNormalised = (normalised: string): number => finish(hashChars(FNV_OFFSET, normalised))

// What each ASCII character is to afterChar; anything outside 32..126 is OTHER_PASS.
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

/**
 * The hash of normaliseForGrouping(prefix + message) (hashOfNormalised of it), from the hash state of a plain prefix
 * (isPlainPrefix), computed without building either text; -1 when normalising the message takes more than its
 * numbers: a "-", what mayNeedHexOrSpacePass looks at (eight hex digits in a row, "0x", a space that is not " " or two
 * in a row, anything beyond ASCII), no text, or a space at either end. Numbers (\d+(\.\d+)?) are "<n>"; every other
 * character is itself.
 */
export function plainHash(message: string, prefixState: number): number {
  const length = message.length
  if (length === 0 || message.charCodeAt(0) === 32 || message.charCodeAt(length - 1) === 32) return -1
  let h = prefixState
  let state = 0
  for (let i = 0; i < length; i++) {
    const c = message.charCodeAt(i)
    if (isDigit(c)) {
      const end = numberEnd(message, i)
      if ((state = afterNumber(state, message, i, end)) === NOT_PLAIN) return -1
      h = Math.imul(Math.imul(Math.imul(h ^ LESS, FNV_PRIME) ^ N, FNV_PRIME) ^ MORE, FNV_PRIME)
      i = end - 1
      continue
    }
    if ((state = afterChar(state, c, i > 0 ? message.charCodeAt(i - 1) : 32)) === NOT_PLAIN) return -1
    h = Math.imul(h ^ c, FNV_PRIME)
  }
  return finish(h)
}

/**
 * Whether normaliseForGrouping(prefix + message) is `normalised`, for a plain prefix of `normalised` whose length is
 * `at`, and takes only the message's numbers (plainHash would hash it). One loop, no string and no hash: a node's
 * next Event of a reason is most often a repeat of its last, checked first.
 */
export function isPlainRepeat(message: string, normalised: string, at: number): boolean {
  const length = message.length
  if (length === 0 || message.charCodeAt(0) === 32 || message.charCodeAt(length - 1) === 32) return false
  let j = at
  let state = 0
  for (let i = 0; i < length; i++) {
    const c = message.charCodeAt(i)
    if (isDigit(c)) {
      if (normalised.charCodeAt(j) !== LESS || normalised.charCodeAt(j + 1) !== N || normalised.charCodeAt(j + 2) !== MORE) return false
      const end = numberEnd(message, i)
      if ((state = afterNumber(state, message, i, end)) === NOT_PLAIN) return false
      j += 3
      i = end - 1
      continue
    }
    if (normalised.charCodeAt(j) !== c || (state = afterChar(state, c, i > 0 ? message.charCodeAt(i - 1) : 32)) === NOT_PLAIN) return false
    j++
  }
  return j === normalised.length
}

/** Where the number that starts at `from` ends: \d+(\.\d+)?, what normaliseForGrouping writes as "<n>". */
function numberEnd(text: string, from: number): number {
  let i = from
  while (i < text.length && isDigit(text.charCodeAt(i))) i++
  if (i + 1 < text.length && text.charCodeAt(i) === DOT && isDigit(text.charCodeAt(i + 1))) for (i++; i < text.length && isDigit(text.charCodeAt(i));) i++
  return i
}

/*
 * What mayNeedHexOrSpacePass knows between two characters, as one number: the hex digits in a row (0 to 7), or
 * AFTER_SPACE (a space was last, no hex digit in a row), or NOT_PLAIN where it would have said true.
 */
const AFTER_SPACE = 8
const NOT_PLAIN = -1

/** The state after character `c` (not a digit: afterNumber) whose previous character was `previous`. */
function afterChar(state: number, c: number, previous: number): number {
  const kind = c < 128 ? CLASS[c] : OTHER_PASS
  if (kind === PLAIN) return 0
  if (kind === SPACE) return state === AFTER_SPACE ? NOT_PLAIN : AFTER_SPACE
  if (kind === HEX_LETTER) return (state & 7) === 7 ? NOT_PLAIN : (state & 7) + 1
  if (kind === X) return previous === 48 ? NOT_PLAIN : 0
  return NOT_PLAIN
}

/** The state after the number text[from, end): its digits are hex digits in a row (a dot ends the row). */
function afterNumber(state: number, text: string, from: number, end: number): number {
  let run = state & 7
  for (let i = from; i < end; i++)
    if (text.charCodeAt(i) === DOT) run = 0
    else if (++run >= 8) return NOT_PLAIN
  return run
}

/**
 * Whether `prefix` (an Event's "reason: ") is its own normalised form whatever message follows it: no digit, no "-",
 * nothing the hex or space passes look at, no space first, and ": " last (so no run of hex digits or spaces goes on
 * into the message). Then plainHash may continue from its state.
 */
export function isPlainPrefix(prefix: string): boolean {
  return prefix.endsWith(': ') && !/[\d-]/.test(prefix) && !mayNeedHexOrSpacePass(prefix) && !prefix.startsWith(' ')
}

export const prefixState = (prefix: string): number => hashChars(FNV_OFFSET, prefix)

/**
 * A plain group's normalised text after its prefix, cut at its "<n>"s: the literal parts a repeat's message is made
 * of, around its numbers. A repeat is then told by comparing those parts (startsWith, native) and reading only the
 * numbers' digits (isTemplateRepeat). undefined where that could differ from isPlainRepeat: the text is not plain
 * with its numbers as "0" (plainHash), or a hex digit or an x stands next to a number (eight hex digits in a row or a
 * "0x" could then span it), or two numbers touch (a message's own "<n>").
 */
export function numberTemplate(normalised: string, at: number): string[] | undefined {
  const parts = normalised.slice(at).split('<n>')
  for (let k = 1; k < parts.length; k++) {
    const before = parts[k - 1]
    const after = parts[k]
    if (k > 1 && before === '') return undefined
    if (before !== '' && nextToNumber(before.charCodeAt(before.length - 1))) return undefined
    if (after !== '' && nextToNumber(after.charCodeAt(0))) return undefined
  }
  return plainHash(parts.join('0'), FNV_OFFSET) === -1 ? undefined : parts
}

/** A character that, next to a number, could join it in a hex run or a "0x": a hex letter or an x. */
const nextToNumber = (c: number) => c < 128 && (CLASS[c] === HEX_LETTER || CLASS[c] === X)

/**
 * isPlainRepeat(message, normalised, at) for the template numberTemplate(normalised, at) made, where it says true
 * (false may still be a repeat: isPlainRepeat then tells). Each number has at most seven digits before and after its
 * dot: an eighth would be a hex run; the parts, with any such numbers, are plain (numberTemplate checked them).
 */
export function isTemplateRepeat(message: string, parts: readonly string[]): boolean {
  if (!message.startsWith(parts[0])) return false
  let at = parts[0].length
  for (let k = 1; k < parts.length; k++) {
    const end = shortNumberEnd(message, at)
    if (end === -1 || !message.startsWith(parts[k], end)) return false
    at = end + parts[k].length
  }
  return at === message.length
}

/** numberEnd of the number that starts at `from`, or -1 where none starts there or a run of its digits is eight or more. */
function shortNumberEnd(text: string, from: number): number {
  const length = text.length
  let i = from
  while (i < length && isDigit(text.charCodeAt(i))) i++
  if (i === from || i - from > 7) return -1
  if (i + 1 < length && text.charCodeAt(i) === DOT && isDigit(text.charCodeAt(i + 1))) {
    const fraction = ++i
    while (i < length && isDigit(text.charCodeAt(i))) i++
    if (i - fraction > 7) return -1
  }
  return i
}
