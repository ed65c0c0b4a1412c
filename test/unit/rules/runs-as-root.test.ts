import { companionCase, findObject } from '../../helpers/bundles.js'

companionCase(
  'runs-as-root',
  'healthy',
  (s) => (findObject(s, 'Pod', 'fullnode-0').spec.securityContext = { runAsUser: 0 }),
  () => undefined,
)
