import { usageError, type UserError } from './errors.js'

/**
 * How much a file from someone else (a bundle, a profile) may make this tool read, unpack and hold.
 * Each limit has a default and an environment variable to raise it for a file one trusts.
 */
export interface ReadLimits {
  /** Bytes a bundle unpacks to, all entries together (tar headers included). */
  bundleBytes: number
  /** Bytes of one file in a bundle. */
  entryBytes: number
  /** Files and folders in a bundle. */
  entries: number
  /** Unpacked bytes per packed byte, checked once a bundle has unpacked more than RATIO_FLOOR_BYTES. */
  ratio: number
  /** Bytes of one log in a bundle. */
  logBytes: number
  /** Bytes of a profile, packed or unpacked (pprof top, and a capture as it streams). */
  profileBytes: number
  /** Bytes a profile takes once decoded (its samples' frames and values, locations, functions, strings). */
  profileDecodedBytes: number
}

export type LimitName = keyof ReadLimits

const MiB = 1024 * 1024
const GiB = 1024 * MiB

/** Below this, a high ratio is harmless (a small bundle of small files compresses well). */
export const RATIO_FLOOR_BYTES = 16 * MiB

interface LimitSpec {
  env: string
  what: string
  fallback: number
  /** What the tool can hold at most whatever is asked (a JavaScript string tops out near 512 MiB). */
  ceiling: number
  size: boolean
}

export const LIMIT_SPECS: Record<LimitName, LimitSpec> = {
  bundleBytes: { env: 'KUBECTL_CHAINNODE_MAX_BUNDLE_SIZE', what: 'unpacked size of a bundle', fallback: 1 * GiB, ceiling: 64 * GiB, size: true },
  entryBytes: { env: 'KUBECTL_CHAINNODE_MAX_ENTRY_SIZE', what: 'size of one file in a bundle', fallback: 128 * MiB, ceiling: 512 * MiB, size: true },
  entries: { env: 'KUBECTL_CHAINNODE_MAX_ENTRIES', what: 'number of files in a bundle', fallback: 100_000, ceiling: 10_000_000, size: false },
  ratio: { env: 'KUBECTL_CHAINNODE_MAX_RATIO', what: 'decompression ratio of a bundle', fallback: 100, ceiling: 1_000_000, size: false },
  logBytes: { env: 'KUBECTL_CHAINNODE_MAX_LOG_SIZE', what: 'size of one log in a bundle', fallback: 64 * MiB, ceiling: 256 * MiB, size: true },
  profileBytes: { env: 'KUBECTL_CHAINNODE_MAX_PROFILE_SIZE', what: 'size of a profile', fallback: 256 * MiB, ceiling: 1 * GiB, size: true },
  profileDecodedBytes: {
    env: 'KUBECTL_CHAINNODE_MAX_PROFILE_DECODED',
    what: 'decoded size of a profile',
    fallback: 512 * MiB,
    ceiling: 8 * GiB,
    size: true,
  },
}

const UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: MiB, mb: MiB, mib: MiB, g: GiB, gb: GiB, gib: GiB }

/** "64MiB", "2g", "1048576": a size as people write it. */
export function parseSize(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text)
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined
  return match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : undefined
}

export function formatSize(bytes: number): string {
  if (bytes >= GiB && bytes % GiB === 0) return `${bytes / GiB} GiB`
  if (bytes >= MiB && bytes % MiB === 0) return `${bytes / MiB} MiB`
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`
  return `${bytes} bytes`
}

const show = (name: LimitName, value: number) => (LIMIT_SPECS[name].size ? formatSize(value) : String(value))

/** The limits in force: the defaults, raised or lowered by the environment. */
export function readLimits(env: NodeJS.ProcessEnv = process.env): ReadLimits {
  const limits = {} as ReadLimits
  for (const [name, spec] of Object.entries(LIMIT_SPECS) as [LimitName, LimitSpec][]) {
    const text = env[spec.env]
    if (text === undefined || text === '') {
      limits[name] = spec.fallback
      continue
    }
    const value = spec.size ? parseSize(text) : /^\s*\d+\s*$/.test(text) ? Number(text) : undefined
    if (value === undefined || value < 1)
      throw usageError(
        `${spec.env}="${text}" is not a ${spec.size ? 'size' : 'positive whole number'}`,
        `e.g. ${spec.env}=${show(name, spec.fallback * 2).replace(' ', '')}`,
      )
    if (value > spec.ceiling)
      throw usageError(
        `${spec.env}="${text}" is above what this tool can hold (${show(name, spec.ceiling)})`,
        `give at most ${show(name, spec.ceiling).replace(' ', '')}`,
      )
    limits[name] = value
  }
  return limits
}

/** The one line said when a file crosses a limit: which file, which limit, and how to raise it. */
export function limitError(name: LimitName, limits: ReadLimits, subject: string): UserError {
  const spec = LIMIT_SPECS[name]
  const raised = show(name, Math.min(limits[name] * 4, spec.ceiling)).replace(' ', '')
  return usageError(
    `${subject} is over the limit of the ${spec.what} (${show(name, limits[name])})`,
    `if you trust the file, raise it with ${spec.env}=${raised}`,
  )
}
