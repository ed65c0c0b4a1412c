import type { OperatorLine } from '../snapshot/node-layout.js'

/** Minimum component versions per operator line (spec §9 for 5.x; the 3.0.0 docs for 3.x). */
export const MINIMUM_VERSIONS: Record<Exclude<OperatorLine, 'unknown'>, { nodeUtils: string; signer: string }> = {
  '5.x': { nodeUtils: '4.0.0', signer: '3.1.0' },
  '3.x': { nodeUtils: '2.10.0', signer: '0.2.0' },
}
