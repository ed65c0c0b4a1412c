import { refOf } from '../snapshot/index.js'
import { podContainers, podInitContainers } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'

export default defineRule<{ containers: string[] }>({
  id: 'runs-as-root',
  title: 'Image runs as root under the restricted profile',
  severity: 'error',
  specRow: '§1.5: the operator enforces the restricted Pod Security profile; node images must run as non-root',
  check({ index, pod }) {
    if (!pod) return []
    const podUser = pod.spec?.securityContext?.runAsUser
    const rootContainers = [...podInitContainers(pod), ...podContainers(pod)]
      .filter((c) => {
        const ctx = c.securityContext
        return (ctx?.runAsUser ?? podUser) === 0 || ctx?.runAsNonRoot === false
      })
      .map((c) => c.name)
    const refused = matchingEvents(index, pod, (e) => /runAsNonRoot|will run as root|non-numeric user/i.test(e.message ?? ''))
    const waiting = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].filter((s) =>
      /runAsNonRoot|run as root/i.test(s.state?.waiting?.message ?? ''),
    )
    const names = [...new Set([...rootContainers, ...waiting.map((s) => s.name)])]
    if (names.length === 0 && refused.length === 0) return []
    const evidence: Evidence[] = [
      ...rootContainers.map((c) => field(pod, `container ${c} runAsUser`, 0)),
      ...waiting.map((s) => field(pod, `container ${s.name} waiting`, s.state?.waiting?.message)),
      ...refused.map(eventEvidence),
    ]
    return [{ subject: refOf(pod), data: { containers: names }, evidence }]
  },
  summary: (d) => `container(s) ${d.containers.join(', ') || '(see events)'} would run as root`,
  cause: () => 'the restricted Pod Security profile requires a non-root user; an image whose user is root is refused',
  action: () => 'Use an image that runs as a non-root user (numeric USER in the image), or set a non-root runAsUser.',
})
