import { editNode, type VocabularyEntry } from '../entry.js'

/** What the ChainNode controller says in keys.go, tmkms.go, cosmosigner.go, reservation*.go (cosmopilot internal/controllers/chainnode/): signing keys, the remote signers and key reservations. */
export const SIGNING_KEYS: readonly VocabularyEntry[] = [
  {
    id: 'event/UploadFailed',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'UploadFailed',
    pattern:
      /(?:^Failed to upload validator key to Vault|^failed to import cosmosigner key to (?:Vault|GCP KMS)|imported key version "[^"]*" is not readable yet)/,
    template:
      'Failed to upload validator key to Vault: <error> | failed to import cosmosigner key to Vault|GCP KMS: <error> | cosmosigner imported key version "<v>" is not readable yet: <error>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the operator cannot put the consensus key into the key backend (Vault or GCP KMS): the signer cannot start signing with it',
    action: 'keyBackend',
  },
  {
    id: 'event/ConsensusKeyReservationBlocked',
    kind: 'ChainNode',
    channel: 'event',
    reason: 'ConsensusKeyReservationBlocked',
    pattern: /consensus key reservation (?:conflict|recovery blocked)/,
    template:
      'consensus key reservation conflict: consensus key on chain "<id>" is already reserved by <Kind> <ns>/<name> (UID <uid>) | consensus key reservation recovery blocked: …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause:
      'another ChainNode or ChainNodeSet holds the reservation of this consensus key: the operator refuses to run two signers of one key (double-sign protection)',
    action:
      'Find the holder: kubectl get consensuskeyreservations -o wide | grep <chain>; remove the key from the other owner (or delete this duplicate) — never run both.',
    clearedBy: ['ConsensusKeyReservationRecovered'],
  },
  {
    id: 'reconcile-error/signing-key-mismatch',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /public key does not match the on-chain|cannot verify the on-chain validator public key|cannot change a validator public key after rollout|serves a different consensus key than source secret|source key changed after import|cannot adopt tmKMS Vault key/,
    template: '… public key does not match the on-chain validator public key recorded in status; Cosmopilot does not rotate validator consensus keys | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the key the signer would use is not the consensus key registered on chain: the operator refuses to roll it out',
    action:
      'Restore the registered consensus key (the one in .status.pubKey) in the signer backend or the key Secret; do not change it in place. kubectl get {kind} {object} -n {namespace} -o jsonpath={.status.pubKey}',
  },
  {
    id: 'reconcile-error/signing-key-missing',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /(?:software key|source|fallback|tmKMS \S+) secret "?(?<secret>[^"\s]+)"? (?:not found|has no|is missing|contains an invalid)|secret "(?<secret2>[^"]+)" is missing required key|is not present in the secret|no supported (?:tmKMS )?provider configured|tmKMS Hashicorp address and key are required/,
    template:
      'cosmosigner software key secret "<name>" not found … | tmKMS <purpose> secret "<name>" not found | priv_validator_key.json is not present in the secret | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'a Secret holding signing material (consensus key, Vault token or certificate) is missing or lacks its key',
    action: 'Create the Secret the error names in {namespace} with the key it asks for (never a new consensus key for a registered validator).',
  },
  {
    id: 'reconcile-error/cosmosigner-removal',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /cosmosigner(?: "[^"]+")? cannot be (?:removed|moved|added|migrated)|cannot be removed: /,
    template: 'cosmosigner [<name>] cannot be removed: <why>',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: 'the spec removes or moves a cosmosigner that protects a live validator key, and the operator cannot prove a safe fallback: it refuses the change',
    action: `Put the signer back in the spec (${editNode}) and follow the error's own instruction before removing it again.`,
  },
  {
    id: 'reconcile-error/cosmosigner-immutable',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /cosmosigner(?: "[^"]+")? (?:replicas are immutable|state storage \(size\/class\) is immutable)/,
    template: 'cosmosigner replicas are immutable after deployment … | cosmosigner state storage (size/class) is immutable after deployment …',
    rule: 'spec-invalid',
    severity: 'error',
    cause: 'the spec changes cosmosigner replicas or state storage, which cannot change after deployment',
    action: `Revert the cosmosigner replicas or storage in the spec: ${editNode}`,
  },
  {
    id: 'reconcile-error/cosmosigner-status-lost',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /restore (?:the recorded target status|the signer status|\.status\.cosmosigners|the previous (?:signer )?configuration)|has live state before its|refusing to switch child signing paths|applied public key (?:was not recorded|is missing)/,
    template: 'cosmosigner <name> … restore the recorded target status before recovery | … applied public key was not recorded …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "the operator lost (or never recorded) the cosmosigner's signing status and will not touch a live signer it cannot verify",
    action:
      "Follow the error's instruction (restore the previous signer configuration or status for one reconcile); do not delete the signer's StatefulSet or PVCs.",
  },
]
