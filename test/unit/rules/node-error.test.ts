import { companionCase, objectsOf } from '../../helpers/bundles.js'

companionCase(
  'node-error',
  'signer-discovery-timeout',
  () => undefined,
  (s) => (objectsOf(s, 'ChainNode')[0].status.phase = 'Running'),
)
