import blockThresholdUnhealthy from './block-threshold-unhealthy.js'
import componentVersion from './component-version.js'
import configChangeRestart from './config-change-restart.js'
import type { Rule } from './define-rule.js'
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
import runsAsRoot from './runs-as-root.js'
import signerDiscoveryTimeout from './signer-discovery-timeout.js'
import signerPubkey from './signer-pubkey.js'
import signerUnhealthy from './signer-unhealthy.js'
import snapshotVerifyFailing from './snapshot-verify-failing.js'
import webhookCertificates from './webhook-certificates.js'

/** The catalogue: one entry per rule file; ids are stable and each has docs/rules/<id>.md. */
export const RULES = [
  webhookCertificates,
  configChangeRestart,
  imagePull,
  notSyncing,
  snapshotVerifyFailing,
  restoreNotStarting,
  pvcNotGrowing,
  profilingUnavailable,
  signerDiscoveryTimeout,
  signerPubkey,
  legacySigningRefused,
  leaderElection,
  legacySignerInUse,
  componentVersion,
  runsAsRoot,
  blockThresholdUnhealthy,
  nodeError,
  priorityClassMissing,
  signerUnhealthy,
  operatorMissing,
  reconcileFailing,
  phaseStuck,
] as unknown as readonly Rule<never>[]

export const ruleIds = (): string[] => RULES.map((rule) => rule.id)
