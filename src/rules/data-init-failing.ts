import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'data-init-failing',
  title: 'Data initialization Pod fails',
  severity: 'error',
  specRow: 'Operator vocabulary: DataInitFailed',
})
