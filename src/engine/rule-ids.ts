import { usageError, type UserError } from '../util/errors.js'
import { didYouMean } from '../util/suggest.js'

/**
 * Findings that come before every other finding of their severity: two signers of one key can cost
 * the stake within a block, so losing the stake outranks every other trouble.
 */
const OUTRANKING_IDS = ['double-sign-risk'] as const

/**
 * Every rule id, in the order doctor runs them (and `chainnode rules` lists them), the outranking ones first; each
 * has src/rules/<id>.ts and docs/rules/<id>.md. The one place an id is written: the engine and the findings name
 * rules by id, the registry (src/rules/index.ts) orders the rules by it, and the rules import the engine's kit, so
 * the ids live beside the engine's types, below the rules.
 */
export const RULE_IDS = [
  ...OUTRANKING_IDS,
  'validator-tombstoned',
  'webhook-certificates',
  'config-change-restart',
  'image-pull',
  'not-syncing',
  'snapshot-verify-failing',
  'restore-not-starting',
  'pvc-not-growing',
  'profiling-unavailable',
  'signer-discovery-timeout',
  'signer-pubkey',
  'legacy-signing-refused',
  'leader-election',
  'legacy-signer-in-use',
  'component-version',
  'runs-as-root',
  'block-threshold-unhealthy',
  'node-error',
  'priority-class-missing',
  'signer-unhealthy',
  'operator-missing',
  'validator-jailed',
  'validator-jail-risk',
  'validator-setup-failing',
  'data-volume-full',
  'data-init-failing',
  'state-sync-blocked',
  'upgrade-blocked',
  'genesis-unavailable',
  'operator-node-unreachable',
  'snapshot-export-failing',
  'oom-recovery',
  'signing-key-blocked',
  'spec-invalid',
  'ownership-conflict',
  'set-rollout-blocked',
  'reconcile-failing',
  'phase-stuck',
  'rpc-unreachable',
  'validator-missed-blocks',
  'consensus-failure',
  'upgrade-needed',
  'upgrade-plan',
  'governance-vote',
] as const

export type RuleId = (typeof RULE_IDS)[number]

/** Whether a finding of this rule comes before the others of its severity (OUTRANKING_IDS). */
export const outranks = (id: RuleId): boolean => (OUTRANKING_IDS as readonly RuleId[]).includes(id)

export const isRuleId = (id: string): id is RuleId => (RULE_IDS as readonly string[]).includes(id)

/** A rule id that is none: said with the nearest id (not-synching: not-syncing) and where the list is. */
export const unknownRule = (id: string): UserError => usageError(`unknown rule "${id}"`, `${didYouMean(id, RULE_IDS)}list the rules with: chainnode rules`)
