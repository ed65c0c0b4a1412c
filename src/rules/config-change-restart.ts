import { annotation, refOf } from '../snapshot/index.js'
import { defineRule, type Evidence } from './define-rule.js'
import { ageMs, byReason, eventEvidence, field, matchingEvents } from './helpers.js'
import { operatorLogsAbout } from './operator-logs.js'

type Verdict = 'pending' | 'deferred' | 'restarted-config' | 'restarted-spec' | 'restarted-unexpected'
const RECENT_MS = 6 * 3_600_000

export default defineRule<{ verdict: Verdict; podHash?: string; configMapHash?: string; restarts: number }>({
  id: 'config-change-restart',
  title: 'Pod restarted (or will restart) because the configuration changed',
  severity: 'info',
  specRow: 'Pod restarts after config change',
  check({ index, node, pod, now }) {
    const configMap = index.configMapOf(node)
    const podHash = pod?.metadata.annotations?.[annotation('config-hash')]
    const configMapHash = configMap?.metadata.annotations?.[annotation('config-hash')]
    const restartEvents = matchingEvents(index, node, byReason('NodeRestarted')).filter((e) => !/upgraded/i.test(e.message))
    const hashEvidence: Evidence[] = [
      ...(pod ? [field(pod, `annotations["${annotation('config-hash')}"]`, podHash)] : []),
      ...(configMap ? [field(configMap, `annotations["${annotation('config-hash')}"]`, configMapHash)] : []),
    ]
    if (pod && podHash && configMapHash && podHash !== configMapHash) {
      const deferred = operatorLogsAbout(index, node, /delaying pod recreation/)
      return [
        {
          subject: refOf(node),
          data: { verdict: deferred.length ? 'deferred' : 'pending', podHash, configMapHash, restarts: restartEvents.length },
          evidence: [...hashEvidence, ...deferred],
          severity: deferred.length ? 'warning' : 'info',
        },
      ]
    }
    const recent = restartEvents.filter((e) => ageMs(now, e.lastTimestamp ?? e.eventTime ?? e.metadata.creationTimestamp) < RECENT_MS)
    if (!pod || recent.length === 0) return []
    const configLogs = operatorLogsAbout(index, node, /config changed|configuration changed/i)
    const specLogs = operatorLogsAbout(index, node, /pod spec changed/i)
    const verdict: Verdict = configLogs.length ? 'restarted-config' : specLogs.length ? 'restarted-spec' : 'restarted-unexpected'
    const around = verdict === 'restarted-unexpected' ? operatorLogsAbout(index, node, /.*/, 5) : []
    return [
      {
        subject: refOf(node),
        data: { verdict, podHash, configMapHash, restarts: recent.length },
        evidence: [
          ...hashEvidence,
          ...recent.map(eventEvidence),
          ...configLogs,
          ...specLogs,
          ...around,
          field(pod, '.metadata.creationTimestamp', pod.metadata.creationTimestamp),
        ],
        severity: verdict === 'restarted-unexpected' ? 'warning' : 'info',
      },
    ]
  },
  summary: (d) =>
    ({
      pending: 'configuration changed: the operator will restart the Pod to apply it',
      deferred: 'configuration changed: the restart is deferred by the disruption check',
      'restarted-config': 'Pod was restarted because the configuration changed (intentional)',
      'restarted-spec': 'Pod was recreated because its spec changed (intentional)',
      'restarted-unexpected': 'Pod was restarted with the same configuration hash (unexpected)',
    })[d.verdict],
  cause: (d) =>
    d.verdict === 'pending' || d.verdict === 'deferred'
      ? `the ConfigMap's config-hash ${d.configMapHash} differs from the Pod's ${d.podHash}`
      : d.verdict === 'restarted-unexpected'
        ? 'no config or spec change was logged by the operator for this restart; the node process may have exited or the Pod failed'
        : 'the operator applies configuration changes by recreating the Pod on purpose',
  action: (d) =>
    d.verdict === 'restarted-unexpected'
      ? 'Compare the config-hash annotation before and after (chainnode config-hash NAME) and read the operator logs for the reconcile that triggered it, and the previous app logs.'
      : d.verdict === 'deferred'
        ? 'Nothing to do unless it lasts: the operator restarts the Pod once enough peers are available; check the other nodes with the same disruption labels.'
        : 'Nothing to fix: this restart is intentional. Use chainnode config-hash NAME to see what changed.',
})
