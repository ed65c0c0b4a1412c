/** An ISO 8601 UTC time with milliseconds, the form every timeline time takes: it is its own normal form. */
const CANONICAL = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

/**
 * Times already converted: a node's 200,000 Events carry far fewer distinct times than Events, and parsing and
 * printing each again is most of a large timeline's work. Emptied when full, so a stranger's times cannot grow it.
 */
const converted = new Map<string, string | undefined>()
const MAX_CONVERTED = 100_000

/** Every time in a timeline is normalised to ISO 8601 UTC with milliseconds, so they compare as text and as dates. */
export function isoTime(text: string | undefined): string | undefined {
  if (!text) return undefined
  if (CANONICAL.test(text) && !Number.isNaN(Date.parse(text))) return text
  if (converted.has(text)) return converted.get(text)
  const ms = Date.parse(text)
  const iso = Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
  if (converted.size >= MAX_CONVERTED) converted.clear()
  converted.set(text, iso)
  return iso
}
