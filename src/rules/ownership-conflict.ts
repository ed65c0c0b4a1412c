import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'ownership-conflict',
  title: 'An object the operator manages belongs to someone else',
  severity: 'error',
  specRow: 'Operator vocabulary: `managed by another owner`, `refusing to adopt/overwrite/delete`, `refusing durable cleanup`',
})
