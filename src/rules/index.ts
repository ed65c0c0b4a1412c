import type { Rule } from '../engine/define-rule.js'
import { RULE_IDS } from '../engine/rule-ids.js'
import blockThresholdUnhealthy from './block-threshold-unhealthy.js'
import componentVersion from './component-version.js'
import configChangeRestart from './config-change-restart.js'
import consensusFailure from './consensus-failure.js'
import dataInitFailing from './data-init-failing.js'
import dataVolumeFull from './data-volume-full.js'
import doubleSignRisk from './double-sign-risk.js'
import genesisUnavailable from './genesis-unavailable.js'
import governanceVote from './governance-vote.js'
import imagePull from './image-pull.js'
import leaderElection from './leader-election.js'
import legacySignerInUse from './legacy-signer-in-use.js'
import legacySigningRefused from './legacy-signing-refused.js'
import nodeError from './node-error.js'
import notSyncing from './not-syncing.js'
import oomRecovery from './oom-recovery.js'
import operatorMissing from './operator-missing.js'
import operatorNodeUnreachable from './operator-node-unreachable.js'
import ownershipConflict from './ownership-conflict.js'
import phaseStuck from './phase-stuck.js'
import priorityClassMissing from './priority-class-missing.js'
import profilingUnavailable from './profiling-unavailable.js'
import pvcNotGrowing from './pvc-not-growing.js'
import reconcileFailing from './reconcile-failing.js'
import restoreNotStarting from './restore-not-starting.js'
import rpcUnreachable from './rpc-unreachable.js'
import runsAsRoot from './runs-as-root.js'
import setRolloutBlocked from './set-rollout-blocked.js'
import signerDiscoveryTimeout from './signer-discovery-timeout.js'
import signerPubkey from './signer-pubkey.js'
import signerUnhealthy from './signer-unhealthy.js'
import signingKeyBlocked from './signing-key-blocked.js'
import snapshotExportFailing from './snapshot-export-failing.js'
import snapshotVerifyFailing from './snapshot-verify-failing.js'
import specInvalid from './spec-invalid.js'
import stateSyncBlocked from './state-sync-blocked.js'
import upgradeBlocked from './upgrade-blocked.js'
import upgradeNeeded from './upgrade-needed.js'
import upgradePlan from './upgrade-plan.js'
import validatorJailRisk from './validator-jail-risk.js'
import validatorJailed from './validator-jailed.js'
import validatorMissedBlocks from './validator-missed-blocks.js'
import validatorSetupFailing from './validator-setup-failing.js'
import validatorTombstoned from './validator-tombstoned.js'
import webhookCertificates from './webhook-certificates.js'

export { RULE_IDS, isRuleId, unknownRule, type RuleId } from '../engine/rule-ids.js'

/** Every rule, by file name; their order is the catalogue's (RULE_IDS), and each names its own id. */
const DEFINED: readonly Rule<object>[] = [
  blockThresholdUnhealthy,
  componentVersion,
  configChangeRestart,
  consensusFailure,
  dataInitFailing,
  dataVolumeFull,
  doubleSignRisk,
  genesisUnavailable,
  governanceVote,
  imagePull,
  leaderElection,
  legacySignerInUse,
  legacySigningRefused,
  nodeError,
  notSyncing,
  oomRecovery,
  operatorMissing,
  operatorNodeUnreachable,
  ownershipConflict,
  phaseStuck,
  priorityClassMissing,
  profilingUnavailable,
  pvcNotGrowing,
  reconcileFailing,
  restoreNotStarting,
  rpcUnreachable,
  runsAsRoot,
  setRolloutBlocked,
  signerDiscoveryTimeout,
  signerPubkey,
  signerUnhealthy,
  signingKeyBlocked,
  snapshotExportFailing,
  snapshotVerifyFailing,
  specInvalid,
  stateSyncBlocked,
  upgradeBlocked,
  upgradeNeeded,
  upgradePlan,
  validatorJailRisk,
  validatorJailed,
  validatorMissedBlocks,
  validatorSetupFailing,
  validatorTombstoned,
  webhookCertificates,
]

/**
 * The catalogue: the rules in the order of RULE_IDS, exactly one per id. An id without its rule, or two rules of
 * one id, stop the tool at once (and test/unit/catalogue.test.ts before that).
 */
export const RULES: readonly Rule<object>[] = inCatalogueOrder(DEFINED)

function inCatalogueOrder(rules: readonly Rule<object>[]): Rule<object>[] {
  const byId = new Map(rules.map((rule) => [rule.id, rule]))
  const missing = RULE_IDS.filter((id) => !byId.has(id))
  if (missing.length > 0 || byId.size !== rules.length)
    throw new Error(
      `src/rules/index.ts holds one rule per id of src/engine/rule-ids.ts: ${missing.length ? `no rule for ${missing.join(', ')}` : 'an id has two rules'}`,
    )
  return RULE_IDS.map((id) => byId.get(id)!)
}
