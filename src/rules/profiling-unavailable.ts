import { refOf } from '../snapshot/index.js'
import { NODE_UTILS, PROFILING_PORT, containerEnv, podContainers, podInitContainers } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { configFile } from '../snapshot/node-config.js'
import { field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'

const PROFILING_WARNING = /profil\w*.*(disabled|unavailable|not available)|6666.*(in use|taken|occupied)|pprof.*(disabled|failed)/i

type Reason = 'port-taken' | 'primary-api-on-6666' | 'chain-pprof-on-6666' | 'no-endpoint' | 'unknown'

export default defineRule<{ reason: Reason; takenBy?: string }>({
  id: 'profiling-unavailable',
  title: 'node-utils profiling endpoint unavailable',
  severity: 'warning',
  specRow: 'Profiling unavailable',
  logs: ['node-utils'],
  check({ index, node, pod }) {
    if (!pod) return []
    // Each node-utils run binds 6666 anew at start: a warning of the previous run says nothing about this one.
    const warnings = grepLogs(index, pod, NODE_UTILS, PROFILING_WARNING, 5, { currentRunOnly: true })
    const probes = index.snapshot.probes.filter((p) => p.kind === 'pprof' && p.pod === pod.metadata.name && p.namespace === pod.metadata.namespace && !p.ok)
    if (warnings.length === 0 && probes.length === 0) return []
    const nodeUtils = [...podInitContainers(pod), ...podContainers(pod)].find((c) => c.name === NODE_UTILS)
    const other = [...podInitContainers(pod), ...podContainers(pod)].find(
      (c) => c.name !== NODE_UTILS && (c.ports ?? []).some((p) => p.containerPort === PROFILING_PORT),
    )
    const chainPprof = /pprof_laddr\s*=\s*"[^"]*:6666"/.test(configFile(index, node, 'config.toml') ?? '')
    const primaryOn6666 = containerEnv(nodeUtils, 'PORT') === String(PROFILING_PORT) || (nodeUtils?.ports ?? []).some((p) => p.containerPort === PROFILING_PORT)
    const text = warnings.map((w) => w.text).join('\n')
    const reason: Reason = primaryOn6666
      ? 'primary-api-on-6666'
      : chainPprof
        ? 'chain-pprof-on-6666'
        : other || /in use|taken|occupied|bind/i.test(text)
          ? 'port-taken'
          : /not (built|compiled)|without profiling|404/i.test(text + probes.map((p) => p.detail).join(' '))
            ? 'no-endpoint'
            : 'unknown'
    const evidence: Evidence[] = [
      ...warnings,
      ...probes.map((p) => ({ kind: 'probe' as const, source: `port-forward ${p.target}`, text: p.detail, at: p.at })),
      ...(other ? [field(pod, `container ${other.name} ports`, PROFILING_PORT)] : []),
      ...(chainPprof ? [{ kind: 'field' as const, source: `ConfigMap/${node.metadata.name} config.toml`, text: 'pprof_laddr uses port 6666' }] : []),
      ...(primaryOn6666 ? [field(pod, 'container node-utils PORT', PROFILING_PORT)] : []),
    ]
    return [{ subject: refOf(pod), data: { reason, takenBy: other?.name ?? (chainPprof ? 'the chain application (pprof_laddr)' : undefined) }, evidence }]
  },
  summary: () => 'node-utils profiling on 127.0.0.1:6666 is unavailable',
  cause: (d) =>
    ({
      'port-taken': `port 6666 conflict: the port was already occupied${d.takenBy ? ` (by ${d.takenBy})` : ''} when node-utils started its profiling listener, so it runs without profiling`,
      'primary-api-on-6666': 'the node-utils primary API is configured on port 6666: the API keeps the port and profiling is disabled',
      'chain-pprof-on-6666': 'the chain application is configured to listen on 6666 (pprof_laddr), which is reserved for node-utils profiling',
      'no-endpoint': 'this node-utils build does not contain the profiling endpoint',
      unknown: 'nothing answers on port 6666 (port conflict, or a build without the profiling endpoint)',
    })[d.reason],
  action: (d) =>
    d.reason === 'no-endpoint'
      ? 'Use a node-utils image built with the profiling endpoint.'
      : 'Port 6666 is reserved for node-utils profiling: move the other listener (chain application, sidecar, or the node-utils primary API) off 6666 and recreate the Pod; the profiling port never moves by itself.',
})
