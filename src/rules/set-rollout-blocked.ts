import { vocabularyRule } from '../analysis/vocabulary-rule.js'

export default vocabularyRule({
  id: 'set-rollout-blocked',
  title: "The ChainNodeSet's rollout is held",
  severity: 'error',
  specRow: 'Operator vocabulary: `timeout waiting for chainnode \u2026 running or syncing status`, seed migration',
})
