import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'validator-setup-failing',
  title: 'The operator cannot register the validator',
  severity: 'error',
  specRow: 'Operator vocabulary: FailedCreateValidator, reconcile error `validator not found`',
})
