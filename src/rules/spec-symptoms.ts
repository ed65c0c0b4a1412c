import type { RuleId } from '../engine/rule-ids.js'

/**
 * The symptom table of the diagnostics reference the product was built from (§7 "Errors" of the
 * operator's diagnostics reference, 5.0.0 line): each row, word for word, and the rule that covers it. The
 * catalogue test holds the registry to this list (each row is some rule's `specRow`), and holds this list to
 * the reference itself when a copy is at hand.
 */
export const SPEC_SYMPTOMS: ReadonlyArray<{ readonly symptom: string; readonly rule: RuleId }> = [
  {
    symptom: 'Creating ChainNode/ChainNodeSet fails with a webhook error, or nothing happens and manager logs mention certificates',
    rule: 'webhook-certificates',
  },
  { symptom: 'Pod restarts after config change', rule: 'config-change-restart' },
  { symptom: 'Pod in `ImagePullBackOff` or `ErrImagePull`', rule: 'image-pull' },
  { symptom: 'Node not syncing / height not advancing', rule: 'not-syncing' },
  { symptom: 'Snapshot integrity check fails repeatedly', rule: 'snapshot-verify-failing' },
  { symptom: 'Restore does not start', rule: 'restore-not-starting' },
  { symptom: 'PVC does not grow', rule: 'pvc-not-growing' },
  { symptom: 'Profiling unavailable', rule: 'profiling-unavailable' },
  { symptom: '`wait-cosmosigner-discovery` times out', rule: 'signer-discovery-timeout' },
  { symptom: "Repeated `can't get pubkey` exits after the gate passes", rule: 'signer-pubkey' },
  { symptom: 'Legacy signing-path refusal', rule: 'legacy-signing-refused' },
  { symptom: 'Reconciles stop with several replicas', rule: 'leader-election' },
]
