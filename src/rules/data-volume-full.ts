import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'data-volume-full',
  title: 'Data volume full or at its maximum size',
  severity: 'error',
  specRow: 'Operator vocabulary: PvcMaxSizeReached, .status.dataUsage at 95% or more',
  // A full disk stops the chain process: the stall and the crash follow from it.
  explains: ['not-syncing', 'node-error', 'consensus-failure'],
})
