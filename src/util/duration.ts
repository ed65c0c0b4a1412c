import { usageError } from './errors.js'

/** Parse kubectl-style durations ("30s", "1m30s", "250ms", or a bare number of seconds). */
export function parseDuration(text: string, flag: string): number {
  const trimmed = text.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000
  const ms = goDurationMs(trimmed)
  if (ms === undefined) throw usageError(`${flag} "${text}" is not a duration`, `use a value like 30s, 2m or 1h`)
  return ms
}

/** Short human age the way kubectl prints it: 45s, 5m, 3h, 2d. */
export function humanAge(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000))
  if (seconds < 120) return `${seconds}s`
  const minutes = Math.floor(seconds / 60)
  if (minutes < 10) return `${minutes}m${seconds % 60 ? `${seconds % 60}s` : ''}`
  if (minutes < 180) return `${minutes}m`
  const hours = Math.floor(minutes / 60)
  if (hours < 48) return `${hours}h`
  const days = Math.floor(hours / 24)
  return days < 365 * 2 ? `${days}d` : `${Math.floor(days / 365)}y`
}

const GO_UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 }

/** A Go time.Duration as Go prints and kubectl's flags read it ("1m0s", "6m40.5s", "850ms"); undefined when it is not one. */
export function goDurationMs(text: string | undefined): number | undefined {
  const parts = [...(text ?? '').matchAll(/(\d+(?:\.\d+)?)(ns|us|µs|μs|ms|s|m|h)/g)]
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== text) return undefined
  return parts.reduce((total, [, value, unit]) => total + Number(value) * GO_UNIT_MS[unit], 0)
}

/** How long ago `time` was; an absent time is infinitely old. */
export const ageMs = (now: number, time: string | undefined): number => (time ? now - Date.parse(time) : Number.POSITIVE_INFINITY)
