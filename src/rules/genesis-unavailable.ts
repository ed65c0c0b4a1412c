import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

/** A set is Initializing for the seconds its first genesis download takes: only longer is a finding by itself. */
const INITIALIZING_GRACE_MS = 10 * 60_000

export default vocabularyRule({
  id: 'genesis-unavailable',
  title: 'The genesis cannot be obtained or created',
  severity: 'error',
  specRow: 'Operator vocabulary: GenesisError, InitGenesisFail, genesis reconcile errors (ChainNode and ChainNodeSet)',
  refine: ({ index, obj, hits }) => {
    const young = Date.parse(index.snapshot.collectedAt) - Date.parse(obj.metadata.creationTimestamp ?? '') < INITIALIZING_GRACE_MS
    const others = hits.some((hit) => hit.entry.channel !== 'status')
    return others || !young ? hits : []
  },
})
