import { vocabularyRule } from './vocabulary/vocabulary-rule.js'

export default vocabularyRule({
  id: 'signing-key-blocked',
  title: 'The operator refuses or cannot set up the signing key or signer',
  severity: 'error',
  specRow: 'Operator vocabulary: UploadFailed, ConsensusKeyReservationBlocked, CosmosignerMigrationPending, cosmosigner refusals',
})
