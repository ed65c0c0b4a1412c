import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'spec-invalid',
  title: 'The operator refuses the spec',
  severity: 'error',
  specRow: 'Operator vocabulary: Invalid, `spec is invalid`, refusals with webhooks disabled',
})
