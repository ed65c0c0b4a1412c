import { existsSync } from 'node:fs'
import path from 'node:path'

/**
 * Reference material some tests hold our own files against: the operator's generated CRDs and the diagnostics
 * reference. It is not part of the repository and nothing else reads it: a clone works without it, and these
 * tests then say why they are skipped. Found only where $CHAINNODE_REFERENCE_DIR names it (.ci/run hands it over).
 */
export const REFERENCE_DIR = process.env.CHAINNODE_REFERENCE_DIR || undefined

/** The reference file's path, or the reason a test comparing with it is skipped. */
export function referenceFile(relative: string): { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string } {
  if (!REFERENCE_DIR) return { skipReason: `reference ${relative}: CHAINNODE_REFERENCE_DIR is not set (set it to compare with the reference)` }
  const file = path.join(REFERENCE_DIR, relative)
  return existsSync(file) ? { path: file } : { skipReason: `reference ${relative} not found under ${REFERENCE_DIR}` }
}
