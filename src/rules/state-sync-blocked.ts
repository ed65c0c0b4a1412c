import { vocabularyRule } from '../analysis/vocabulary-rule.js'
import { isKind } from '../snapshot/kinds.js'

export default vocabularyRule({
  id: 'state-sync-blocked',
  title: 'State-sync restore cannot be configured',
  severity: 'error',
  specRow: 'Operator vocabulary: NoPeers, NoTrustHeight',
  // "not adding state-sync details" comes with every reconcile of a node that serves no state-sync
  // snapshots: only a node configured to serve them has a problem when it cannot publish one.
  refine: ({ obj, hits }) =>
    hits.filter(
      (hit) => hit.entry.id !== 'event/NoTrustHeight-serving' || (isKind(obj, 'ChainNode') && (obj.spec?.config?.stateSync?.snapshotInterval ?? 0) > 0),
    ),
})
