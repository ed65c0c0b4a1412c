import parseSemver from 'semver/functions/parse.js'
import semverGte from 'semver/functions/gte.js'
import type { OperatorLine } from '../snapshot/node-layout.js'

/** Minimum component versions per operator line (spec §9 for 5.x; the 3.0.0 docs for 3.x). */
export const MINIMUM_VERSIONS: Record<Exclude<OperatorLine, 'unknown'>, { nodeUtils: string; signer: string }> = {
  '5.x': { nodeUtils: '4.0.0', signer: '3.1.0' },
  '3.x': { nodeUtils: '2.10.0', signer: '0.2.0' },
}

/**
 * Compare a tag against a minimum semver; 'unknown' for tags that are not versions (latest, edge, sha).
 * semver orders a prerelease before its release, so 3.1.0-rc.1 does not meet a 3.1.0 minimum.
 */
export function versionAtLeast(tag: string | undefined, minimum: string): boolean | 'unknown' {
  const have = tag ? parseSemver(tag, { loose: true }) : null
  if (!have) return 'unknown'
  return semverGte(have, minimum, { loose: true })
}
