import { companionCase } from '../../helpers/bundles.js'

companionCase(
  'node-error',
  'signer-discovery-timeout',
  () => undefined,
  (s) => (s.objects.find((o) => o.kind === 'ChainNode')!.status.phase = 'Running'),
)
