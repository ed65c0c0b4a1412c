/**
 * JSON from strangers (a bundle file, an API answer, a watch event, a log line, an RPC answer) nested far deeper
 * than any of it is in truth. JSON.parse reads any depth, but what reads the value after it (JSON.stringify,
 * String() of an array, a renderer's walk) recurses, and a few thousand levels overflow the stack there. No
 * Kubernetes object, CometBFT answer or log line of ours comes near this many levels.
 */
export const MAX_JSON_DEPTH = 512

const QUOTE = 0x22
const BACKSLASH = 0x5c

/** Whether JSON text nests objects and lists deeper than `limit`, counted over the text without parsing it. */
export function nestedDeeperThan(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === QUOTE) {
      // Brackets inside a string do not nest: jump to the quote that ends it (one preceded by an even run of backslashes).
      for (;;) {
        const end = text.indexOf('"', i + 1)
        if (end === -1) return false
        let backslashes = 0
        while (text.charCodeAt(end - 1 - backslashes) === BACKSLASH) backslashes++
        i = end
        if (backslashes % 2 === 0) break
      }
    } else if (code === 0x5b || code === 0x7b) {
      if (++depth > limit) return true
    } else if (code === 0x5d || code === 0x7d) depth--
  }
  return false
}

export class JsonTooDeepError extends Error {
  constructor(readonly limit: number) {
    super(`nested deeper than ${limit} levels`)
  }
}

/** JSON.parse, refusing text nested deeper than `limit` (JsonTooDeepError) where the whole text is then worthless. */
export function parseJsonBounded(text: string, limit = MAX_JSON_DEPTH): unknown {
  const value: unknown = JSON.parse(text)
  if (nestedDeeperThan(text, limit)) throw new JsonTooDeepError(limit)
  return value
}

/** The note that takes the place of a value nested too deep. */
export const cutNote = (limit: number) => `(nested deeper than ${limit} levels: not read)`

/**
 * JSON.parse keeping what is within `limit` levels: a value deeper is replaced by a note, so one hostile field of
 * one object costs that field, not the list it came in.
 */
export function parseJsonPruned<T = unknown>(text: string, limit = MAX_JSON_DEPTH): T {
  const value = JSON.parse(text) as T
  if (!nestedDeeperThan(text, limit)) return value
  const stack: [Record<string, unknown>, number][] = value !== null && typeof value === 'object' ? [[value as Record<string, unknown>, 1]] : []
  while (stack.length) {
    const [container, depth] = stack.pop()!
    // Own entries, and defined rather than assigned: a key "__proto__" (JSON.parse makes it an own field) would
    // otherwise read and write the prototype.
    for (const [key, inner] of Object.entries(container)) {
      if (inner === null || typeof inner !== 'object') continue
      if (depth >= limit) Object.defineProperty(container, key, { value: cutNote(limit), enumerable: true, writable: true, configurable: true })
      else stack.push([inner as Record<string, unknown>, depth + 1])
    }
  }
  return value
}
