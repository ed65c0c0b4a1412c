import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'upgrade-blocked',
  title: 'A chain upgrade cannot be applied',
  severity: 'error',
  specRow: 'Operator vocabulary: UpgradeMissingData, UpgradeFailed, NodeError after upgrade, `could not retrieve upgrade plans`',
})
