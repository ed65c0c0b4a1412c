import { refOf } from '../snapshot/index.js'
import { allContainerStatuses, containerImage } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { eventEvidence } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'

const PULL_REASONS = ['ImagePullBackOff', 'ErrImagePull', 'InvalidImageName', 'ErrImageNeverPull']

export default defineRule<{ container: string; image?: string; reason: string; hasPullSecrets: boolean; notFound: boolean; unauthorized: boolean }>({
  id: 'image-pull',
  title: 'Pod cannot pull its image',
  severity: 'error',
  specRow: 'Pod in `ImagePullBackOff` or `ErrImagePull`',
  // No image, no process: nothing answers and nothing syncs.
  explains: ['rpc-unreachable', 'not-syncing', 'phase-stuck'],
  check({ index, node, pod }) {
    if (!pod) return []
    return allContainerStatuses(pod)
      .filter((status) => PULL_REASONS.includes(String(status.state?.waiting?.reason)))
      .map((status) => {
        const image = containerImage(pod, status.name)
        const events = matchingEvents(
          index,
          pod,
          (e) =>
            /pull|image/i.test(`${e.reason} ${e.message}`) &&
            (!image || String(e.message).includes(image) || e.reason === 'BackOff' || /ErrImagePull/.test(e.message ?? '')),
        )
        const messages = [status.state?.waiting?.message, ...events.map((e) => e.message)].join(' ')
        const evidence: Evidence[] = [
          {
            kind: 'field',
            source: `Pod/${pod.metadata.name}`,
            text: `container ${status.name}: waiting ${status.state?.waiting?.reason}${status.state?.waiting?.message ? `: ${status.state.waiting.message}` : ''}`,
          },
          ...events.map(eventEvidence),
        ]
        return {
          subject: refOf(pod),
          data: {
            container: status.name,
            image,
            reason: String(status.state?.waiting?.reason),
            hasPullSecrets: (pod.spec?.imagePullSecrets ?? []).length > 0 || (node.spec?.config?.imagePullSecrets ?? []).length > 0,
            notFound: /not found|manifest unknown|no such/i.test(messages),
            // Registries answer "401 Unauthorized" / "403 Forbidden" (or "status code 403"); a bare 401 or 403 also
            // matches digests, image sizes and durations in the pull Events.
            unauthorized: /unauthorized|forbidden|denied|authentication required|code:? 40[13]\b/i.test(messages),
          },
          evidence,
        }
      })
  },
  summary: (d) => `container ${d.container} cannot pull ${d.image ?? 'its image'} (${d.reason})`,
  cause: (d) =>
    d.notFound
      ? `the registry does not have ${d.image}: the image name or tag is wrong`
      : d.unauthorized
        ? `the registry refused the pull${d.hasPullSecrets ? ' with the configured imagePullSecrets' : ' and no imagePullSecrets are set'}`
        : 'the image could not be pulled (name, tag, registry reachability or credentials)',
  action: (d) =>
    [
      'Verify the image name and tag are correct and reachable from the cluster',
      d.hasPullSecrets
        ? 'check that the imagePullSecrets hold valid credentials'
        : 'for a private registry set imagePullSecrets on the ChainNode (.spec.config.imagePullSecrets)',
      'the image must run as a non-root user (restricted Pod Security profile)',
    ].join('; ') + '.',
})
