import { editNode, invalidSpec, type VocabularyEntry } from '../entry.js'

/** What the ChainNode controller says in controller.go, ownership.go, resource_cleanup.go (cosmopilot internal/controllers/chainnode/): the spec, ownership of what the operator creates. */
export const SPEC_AND_OWNERSHIP: readonly VocabularyEntry[] = [
  ...invalidSpec('ChainNode', '', 'nothing of the node is reconciled until it is fixed'),
  {
    id: 'error-log/validation-warnings',
    kind: 'ChainNode',
    channel: 'error-log',
    pattern: /^validation warnings$/,
    template: 'validation warnings (warnings: [<text>…])',
    rule: 'spec-invalid',
    severity: 'warning',
    cause: 'the operator accepts the spec but warns about it (webhooks disabled, so kubectl never showed the warning)',
    action: `Read the warnings and fix the spec: ${editNode}`,
  },
  {
    id: 'reconcile-error/durable-cleanup',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern: /refusing durable cleanup|refusing to release consensus-key reservations|refusing an unguarded delete|changed UID while removing/,
    template: 'refusing durable cleanup while pod <ns>/<pod> is not controlled by ChainNode UID <uid> | …',
    rule: 'ownership-conflict',
    severity: 'error',
    cause:
      'the node is being deleted and the operator will not remove its volumes, keys or reservation while a Pod it does not own still uses them: the deletion hangs on its finalizer',
    action: 'Delete (or release) the Pod the error names, then the finalizer completes: kubectl get pod -n {namespace} -o wide | grep {object}',
  },
  {
    id: 'reconcile-error/ownership',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /managed by another owner|not owned by this ChainNode|refusing to (?:overwrite|adopt|update|delete|use it)|has no controller owner|is not controlled by ChainNode/,
    template: 'ChainNode <kind> "<name>" is managed by another owner; refusing to overwrite it | … refusing to use it | …',
    rule: 'ownership-conflict',
    severity: 'error',
    cause: 'an object the operator must manage for this node already exists and belongs to someone else: it refuses to overwrite it',
    action:
      'Find the object the error names (kubectl get <kind> <name> -n {namespace} -o yaml | grep -A5 ownerReferences) and delete it or rename one of the two.',
  },
  {
    id: 'reconcile-error/reservation-inconsistent',
    kind: 'ChainNode',
    channel: 'reconcile-error',
    pattern:
      /reservation "[^"]+" matches \S+ UID "[^"]+" but has inconsistent|still matches (?:an obsolete|a managed) standalone|still matches undesired reservation claim/,
    template: 'reservation "<name>" matches ChainNode UID "<uid>" but has inconsistent owner or claim metadata | …',
    rule: 'signing-key-blocked',
    severity: 'error',
    cause: "a ConsensusKeyReservation of the node's key does not agree with its owner, so the operator will not move or release it",
    action:
      'kubectl get consensuskeyreservations -o yaml | grep -B3 -A10 {object}; fix or remove the stale reservation only once no other signer uses the key.',
  },
]
