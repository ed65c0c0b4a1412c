import { companionCase, findObject, objectsOf } from '../../helpers/bundles.js'

companionCase(
  'legacy-signer-in-use',
  'legacy-signing',
  () => undefined,
  (s) => {
    delete objectsOf(s, 'ChainNode')[0].spec.validator.tmKMS
    const pod = findObject(s, 'Pod', 'tmkms-0')
    pod.spec.containers = pod.spec.containers.filter((c: { name: string }) => c.name === 'app')
  },
)
