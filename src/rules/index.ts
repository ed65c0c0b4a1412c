import blockThresholdUnhealthy from './block-threshold-unhealthy.js'
import componentVersion from './component-version.js'
import configChangeRestart from './config-change-restart.js'
import consensusFailure from './consensus-failure.js'
import doubleSignRisk from './double-sign-risk.js'
import type { Rule } from '../engine/define-rule.js'
import imagePull from './image-pull.js'
import leaderElection from './leader-election.js'
import legacySignerInUse from './legacy-signer-in-use.js'
import legacySigningRefused from './legacy-signing-refused.js'
import nodeError from './node-error.js'
import notSyncing from './not-syncing.js'
import operatorMissing from './operator-missing.js'
import priorityClassMissing from './priority-class-missing.js'
import phaseStuck from './phase-stuck.js'
import profilingUnavailable from './profiling-unavailable.js'
import pvcNotGrowing from './pvc-not-growing.js'
import reconcileFailing from './reconcile-failing.js'
import restoreNotStarting from './restore-not-starting.js'
import rpcUnreachable from './rpc-unreachable.js'
import runsAsRoot from './runs-as-root.js'
import signerDiscoveryTimeout from './signer-discovery-timeout.js'
import signerPubkey from './signer-pubkey.js'
import signerUnhealthy from './signer-unhealthy.js'
import snapshotVerifyFailing from './snapshot-verify-failing.js'
import upgradeNeeded from './upgrade-needed.js'
import validatorMissedBlocks from './validator-missed-blocks.js'
import webhookCertificates from './webhook-certificates.js'
import validatorJailed from './validator-jailed.js'
import validatorSetupFailing from './validator-setup-failing.js'
import dataVolumeFull from './data-volume-full.js'
import dataInitFailing from './data-init-failing.js'
import stateSyncBlocked from './state-sync-blocked.js'
import upgradeBlocked from './upgrade-blocked.js'
import genesisUnavailable from './genesis-unavailable.js'
import operatorNodeUnreachable from './operator-node-unreachable.js'
import snapshotExportFailing from './snapshot-export-failing.js'
import oomRecovery from './oom-recovery.js'
import signingKeyBlocked from './signing-key-blocked.js'
import specInvalid from './spec-invalid.js'
import ownershipConflict from './ownership-conflict.js'
import setRolloutBlocked from './set-rollout-blocked.js'
import validatorTombstoned from './validator-tombstoned.js'
import validatorJailRisk from './validator-jail-risk.js'
import upgradePlan from './upgrade-plan.js'
import governanceVote from './governance-vote.js'
import { RULE_IDS, type RuleId } from './ids.js'

export { RULE_IDS, isRuleId, unknownRule, type RuleId } from './ids.js'

/** The catalogue: exactly one rule per id (the type refuses a missing or unknown id; a test checks each rule's own id). */
const REGISTRY: { readonly [Id in RuleId]: Rule<object> } = {
  'double-sign-risk': doubleSignRisk,
  'webhook-certificates': webhookCertificates,
  'config-change-restart': configChangeRestart,
  'image-pull': imagePull,
  'not-syncing': notSyncing,
  'snapshot-verify-failing': snapshotVerifyFailing,
  'restore-not-starting': restoreNotStarting,
  'pvc-not-growing': pvcNotGrowing,
  'profiling-unavailable': profilingUnavailable,
  'signer-discovery-timeout': signerDiscoveryTimeout,
  'signer-pubkey': signerPubkey,
  'legacy-signing-refused': legacySigningRefused,
  'leader-election': leaderElection,
  'legacy-signer-in-use': legacySignerInUse,
  'component-version': componentVersion,
  'runs-as-root': runsAsRoot,
  'block-threshold-unhealthy': blockThresholdUnhealthy,
  'node-error': nodeError,
  'priority-class-missing': priorityClassMissing,
  'signer-unhealthy': signerUnhealthy,
  'operator-missing': operatorMissing,
  'validator-jailed': validatorJailed,
  'validator-setup-failing': validatorSetupFailing,
  'data-volume-full': dataVolumeFull,
  'data-init-failing': dataInitFailing,
  'state-sync-blocked': stateSyncBlocked,
  'upgrade-blocked': upgradeBlocked,
  'genesis-unavailable': genesisUnavailable,
  'operator-node-unreachable': operatorNodeUnreachable,
  'snapshot-export-failing': snapshotExportFailing,
  'oom-recovery': oomRecovery,
  'signing-key-blocked': signingKeyBlocked,
  'spec-invalid': specInvalid,
  'ownership-conflict': ownershipConflict,
  'set-rollout-blocked': setRolloutBlocked,
  'reconcile-failing': reconcileFailing,
  'phase-stuck': phaseStuck,
  'rpc-unreachable': rpcUnreachable,
  'validator-missed-blocks': validatorMissedBlocks,
  'consensus-failure': consensusFailure,
  'upgrade-needed': upgradeNeeded,
  'validator-tombstoned': validatorTombstoned,
  'validator-jail-risk': validatorJailRisk,
  'upgrade-plan': upgradePlan,
  'governance-vote': governanceVote,
}

export const RULES: readonly Rule<object>[] = RULE_IDS.map((id) => REGISTRY[id])
