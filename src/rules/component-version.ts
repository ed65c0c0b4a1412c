import { refOf } from '../snapshot/index.js'
import { NODE_UTILS, containerImage, detectOperatorLine, imageTag } from '../snapshot/node-layout.js'
import { defineRule } from '../engine/define-rule.js'
import { signerOf } from '../analysis/signer-context.js'
import { MINIMUM_VERSIONS, versionAtLeast } from '../analysis/versions.js'
import { field } from '../engine/evidence.js'

interface Data {
  component: 'node-utils' | 'remote signer'
  image: string
  minimum: string
  verdict: 'old' | 'unknown'
  line: string
}

export default defineRule<Data>({
  id: 'component-version',
  title: 'node-utils or remote signer image below the minimum version',
  severity: 'warning',
  severityNote: '(info when the tag is not a version)',
  specRow: '§9.2: remote signer 3.1.0 or newer and node-utils 4.0.0 or newer, image overrides included',
  suppressedBy: ['signer-pubkey'],
  check({ index, node, pod }) {
    if (!pod) return []
    const line = detectOperatorLine(node, pod)
    if (line === 'unknown') return []
    const minimum = MINIMUM_VERSIONS[line]
    const checks: { component: Data['component']; image?: string; minimum: string; subject: ReturnType<typeof refOf> }[] = [
      { component: 'node-utils', image: containerImage(pod, NODE_UTILS), minimum: minimum.nodeUtils, subject: refOf(pod) },
    ]
    const signer = signerOf(index, node, pod)
    const signerImage = signer?.statefulSet?.spec?.template?.spec?.containers?.find((c) => c.name === 'cosmosigner')?.image
    if (signer?.statefulSet && signerImage)
      checks.push({ component: 'remote signer', image: signerImage, minimum: minimum.signer, subject: refOf(signer.statefulSet) })
    return checks.flatMap(({ component, image, minimum: min, subject }) => {
      if (!image) return []
      const ok = versionAtLeast(imageTag(image), min)
      if (ok === true) return []
      return [
        {
          subject,
          severity: ok === 'unknown' ? ('info' as const) : undefined,
          data: { component, image, minimum: min, verdict: ok === 'unknown' ? ('unknown' as const) : ('old' as const), line },
          evidence: [field(subject, `${component} image`, image)],
        },
      ]
    })
  },
  summary: (d) =>
    d.verdict === 'old' ? `${d.component} ${d.image} is older than ${d.minimum}` : `${d.component} version of ${d.image} is unknown (not a semver tag)`,
  cause: (d) =>
    `the ${d.line} operator line requires ${d.component} ${d.minimum} or newer${d.verdict === 'unknown' ? '; moving tags and digests cannot be checked' : ''}`,
  action: (d) => `Run ${d.component} ${d.minimum} or newer; check image overrides (Helm values, .spec image fields) as well as the defaults.`,
})
