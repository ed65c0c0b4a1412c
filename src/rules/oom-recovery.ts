import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'oom-recovery',
  title: 'The node is OOMKilled and the operator scales its memory',
  severity: 'error',
  specRow: 'Operator vocabulary: VPAEmergencyScaleUp, VPAOOMRecoveryLimitReached, `failed to handle OOM recovery`',
})
