import { existsSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './cli.js'

/**
 * Reference material some tests hold our own files against: the operator's generated CRDs and the diagnostics
 * reference. It is not part of the repository and nothing else reads it: a clone works without it, and these
 * tests then say why they are skipped. Looked up in $CHAINNODE_REFERENCE_DIR, else in a `shared/` folder
 * beside the checkout (where the project's maintainers keep it).
 */
export const REFERENCE_DIR = process.env.CHAINNODE_REFERENCE_DIR || path.resolve(ROOT, '..', 'shared')

/** The reference file's path, or the reason a test comparing with it is skipped. */
export function referenceFile(relative: string): { path: string; skipReason?: undefined } | { path?: undefined; skipReason: string } {
  const file = path.join(REFERENCE_DIR, relative)
  return existsSync(file)
    ? { path: file }
    : { skipReason: `reference ${relative} not found under ${REFERENCE_DIR} (set CHAINNODE_REFERENCE_DIR to compare with it)` }
}
