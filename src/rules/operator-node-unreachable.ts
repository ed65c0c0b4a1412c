import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'operator-node-unreachable',
  title: 'The operator cannot query or expose the node',
  severity: 'error',
  specRow: 'Operator vocabulary: reconcile errors querying the node, P2P exposure timeouts, deferred restarts',
})
