/** Every time in a timeline is normalised to ISO 8601 UTC with milliseconds, so they compare as text and as dates. */
export function isoTime(text: string | undefined): string | undefined {
  if (!text) return undefined
  const ms = Date.parse(text)
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString()
}
