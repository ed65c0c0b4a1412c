import { VALIDATOR } from './chainnode/validator.js'
import { STORAGE } from './chainnode/pvc.js'
import { STATE_SYNC } from './chainnode/state-sync.js'
import { UPGRADES } from './chainnode/upgrades.js'
import { GENESIS } from './chainnode/genesis.js'
import { NODE_POD } from './chainnode/pod.js'
import { SNAPSHOTS } from './chainnode/snapshots.js'
import { VPA } from './chainnode/vpa.js'
import { SIGNING_KEYS } from './chainnode/keys.js'
import { SPEC_AND_OWNERSHIP } from './chainnode/spec.js'
import { CHAINNODESET } from './chainnodeset.js'
import type { VocabularyEntry } from './entry.js'

export { fillTemplate, SHARED_ACTIONS, type Channel, type VocabularyEntry } from './entry.js'

/**
 * The operator's failure vocabulary: every Warning Event, returned reconcile error, error-level log line,
 * phase and status field by which cosmopilot's ChainNode and ChainNodeSet controllers say something is
 * wrong, read from the operator's source at OPERATOR_VERSION (internal/controllers/**), one module per part of
 * the operator that writes it (rules/vocabulary/chainnode/<part>.ts, rules/vocabulary/chainnodeset.ts). Written in our own
 * words: the message as a pattern, where the operator writes it, what it means and what to do. Diff a new
 * operator release against this list (docs/operator-vocabulary.md is generated from it).
 */
export const OPERATOR_VERSION = 'cosmopilot v3.0.0'

/** Every entry, ChainNode first, then ChainNodeSet; the order docs/operator-vocabulary.md lists them in. */
export const VOCABULARY: readonly VocabularyEntry[] = [
  ...VALIDATOR,
  ...STORAGE,
  ...STATE_SYNC,
  ...UPGRADES,
  ...GENESIS,
  ...NODE_POD,
  ...SNAPSHOTS,
  ...VPA,
  ...SIGNING_KEYS,
  ...SPEC_AND_OWNERSHIP,
  ...CHAINNODESET,
]

export const entryById = new Map(VOCABULARY.map((entry) => [entry.id, entry]))
