import { refOf } from '../snapshot/index.js'
import { DISCOVERY_GATE, containerStatus, podReady } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { SIGNER_PORT, policiesBlockingSigner, signerOf, signerTargets } from '../analysis/signer-context.js'
import { eventEvidence, field, missing } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'
import { matchingEvents } from '../snapshot/events.js'

export default defineRule<{
  signer?: string
  noEndpoints: boolean
  blockedBy: string[]
  signerPodsReady: number
  signerPodsRunning: number
  signerPods: number
  dnsTrouble: boolean
  oldNodeUtils: boolean
  node: string
  namespace: string
}>({
  id: 'signer-discovery-timeout',
  title: 'wait-cosmosigner-discovery times out',
  severity: 'error',
  specRow: '`wait-cosmosigner-discovery` times out',
  // The node waits for its signer: it neither answers nor signs.
  explains: ['rpc-unreachable', 'not-syncing', 'validator-missed-blocks', 'phase-stuck'],
  logs: ['gate'],
  check({ index, node, pod }) {
    const gate = containerStatus(pod, DISCOVERY_GATE)
    if (!pod) return []
    const terminated = gate?.state?.terminated ?? gate?.lastState?.terminated
    const failed = (terminated && terminated.exitCode !== 0) || gate?.state?.waiting?.reason === 'CrashLoopBackOff'
    const gateLogs = grepLogs(index, pod, DISCOVERY_GATE, /discovery|DNS|observed_addresses|deadline|unknown subcommand|does not exist/i, 6, { anyLevel: true })
    const signer = signerOf(index, node, pod)
    // The active gate check (chainnode signer / doctor) asks the signer now, as the gate will at the next start: a
    // signer that accepts and sends nothing fails it even where the gate passed at this Pod's start. A check that could
    // not run (the port-forward failed) measured nothing: it is no gate timeout.
    const failedProbes = signer
      ? index.snapshot.probes.filter(
          (p) =>
            p.kind === 'signer-gate' &&
            !p.ok &&
            !p.couldNotRun &&
            p.namespace === node.metadata.namespace &&
            signerTargets(index, node, signer.name).includes(p.pod),
        )
      : []
    if (!failed && failedProbes.length === 0) return []
    const blocked = policiesBlockingSigner(index, pod, signer?.pods ?? [])
    // signer-unhealthy gives way to this rule, so a signer that runs but is not Ready must be told here.
    const ready = signer?.pods.filter(podReady).length ?? 0
    const running = signer?.pods.filter((p) => p.status?.phase === 'Running').length ?? 0
    const text = `${terminated?.message ?? ''} ${gateLogs.map((l) => l.text).join(' ')}`
    const evidence: Evidence[] = [
      ...(gate ? [field(pod, `initContainer ${DISCOVERY_GATE}`, terminated ? `terminated exit ${terminated.exitCode}` : gate.state?.waiting?.reason)] : []),
      ...failedProbes.map((p) => ({ kind: 'probe' as const, source: `gate check ${p.target}`, text: p.detail, at: p.at })),
      ...(terminated?.message
        ? [
            {
              kind: 'field' as const,
              source: `Pod/${pod.metadata.name} ${DISCOVERY_GATE} termination message`,
              text: String(terminated.message).trim().split('\n')[0],
              at: terminated.finishedAt as string | undefined,
            },
          ]
        : []),
      ...gateLogs,
      ...(signer && !signer.discoveryService ? [missing(`Service ${signer.name}-privval`, 'the discovery Service does not exist')] : []),
      ...(signer?.discoveryService ? [field(signer.discoveryService, 'endpoints', signer.endpointAddresses)] : []),
      ...(signer?.statefulSet
        ? [field(signer.statefulSet, '.status.readyReplicas', `${signer.statefulSet.status?.readyReplicas ?? 0}/${signer.statefulSet.spec?.replicas ?? 0}`)]
        : []),
      ...(signer?.pods ?? []).filter((p) => p.status?.phase === 'Running' && !podReady(p)).map((p) => field(p, 'Ready', false)),
      ...blocked.map((policy) => field(policy, 'ingress', `does not allow TCP ${SIGNER_PORT} from the signer`)),
      ...matchingEvents(index, pod, (e) => e.type === 'Warning')
        .slice(-3)
        .map(eventEvidence),
    ]
    return [
      {
        subject: refOf(pod),
        data: {
          signer: signer?.name,
          noEndpoints: Boolean(signer) && signer!.endpointAddresses === 0,
          blockedBy: blocked.map((p) => p.metadata.name),
          signerPodsReady: ready,
          signerPodsRunning: running,
          signerPods: signer?.pods.length ?? 0,
          dnsTrouble: /NXDOMAIN|no such host|pod-local DNS: (?!ok)/i.test(text),
          oldNodeUtils: /unknown subcommand|configuration file does not exist/i.test(text),
          node: node.metadata.name,
          namespace: node.metadata.namespace ?? '',
        },
        evidence,
      },
    ]
  },
  summary: (d) => `the signer discovery gate timed out${d.signer ? ` waiting for ${d.signer}` : ''}`,
  cause: (d) =>
    [
      // The most basic fault first: with no ready signer Pod, the Service's missing endpoints follow from it.
      d.signer && d.signerPodsReady === 0 ? `no signer Pod of ${d.signer} is ready (${d.signerPodsRunning} of ${d.signerPods} running)` : '',
      d.oldNodeUtils ? 'the node-utils image does not know the gate command (too old for this operator line)' : '',
      d.noEndpoints ? `the discovery Service ${d.signer}-privval has no endpoints` : '',
      d.blockedBy.length ? `NetworkPolicy ${d.blockedBy.join(', ')} blocks TCP 26659 between the signer and the node` : '',
      d.dnsTrouble ? 'the gate logs report DNS problems' : '',
    ]
      .filter(Boolean)
      .join('; ') || 'no signer connected to the node within 25 seconds',
  action: (d) =>
    `Inspect the gate logs for DNS diagnostics (kubectl chainnode logs ${d.node} -n ${d.namespace} -c gate), the discovery Service endpoints${
      d.signer ? ` (kubectl get endpoints ${d.signer}-privval -n ${d.namespace})` : ''
    }, the signer leader logs, and NetworkPolicy enforcement on TCP 26659.`,
})
