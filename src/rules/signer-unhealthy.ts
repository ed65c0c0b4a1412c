import { refOf } from '../snapshot/index.js'
import { detectOperatorLine, podReady } from '../snapshot/node-layout.js'
import { defineRule, nodeArgs, type Evidence } from '../engine/define-rule.js'
import { signerOf, signerServesHttpHealth } from '../analysis/signer-context.js'
import { field } from '../engine/evidence.js'

export default defineRule<{ signer: string; failing: string[]; running: number; pods: number }>({
  id: 'signer-unhealthy',
  title: 'Remote signer instances not live or not ready',
  severity: 'error',
  specRow: '§4.2: /livez and /readyz on HTTP 8080; readiness includes backend and preflight initialisation, followers report ready too',
  suppressedBy: ['signer-discovery-timeout', 'signer-pubkey'],
  check({ index, node, pod }) {
    const signer = signerOf(index, node, pod)
    if (!signer) return []
    // On the 3.x line an HTTP probe can only fail (nothing listens on 8080): Pod readiness is the evidence there.
    const http = signerServesHttpHealth(detectOperatorLine(node, pod))
    const probes = index.snapshot.probes.filter(
      (p) => http && p.kind === 'signer-http' && p.namespace === node.metadata.namespace && signer.pods.some((sp) => sp.metadata.name === p.pod),
    )
    const failing = probes.filter((p) => !p.ok)
    // The kubelet runs /readyz as the readiness probe (3.x has none: Ready waits for the TCP 7070 startup probe),
    // so a Running Pod that is not Ready is failing it.
    const notReady = signer.pods.filter((p) => p.status?.phase === 'Running' && !podReady(p) && !failing.some((f) => f.pod === p.metadata.name))
    const running = signer.pods.filter((p) => p.status?.phase === 'Running').length
    const wanted = signer.statefulSet?.spec?.replicas ?? 0
    const noneRunning = running === 0 && (wanted > 0 || signer.pods.length > 0)
    if (failing.length === 0 && notReady.length === 0 && !noneRunning) return []
    const evidence: Evidence[] = [
      ...failing.map((p) => ({ kind: 'probe' as const, source: p.target, text: p.detail, at: p.at })),
      ...notReady.map((p) => field(p, 'Ready', false)),
      ...(signer.statefulSet ? [field(signer.statefulSet, '.status.readyReplicas', `${signer.statefulSet.status?.readyReplicas ?? 0}/${wanted}`)] : []),
      ...signer.pods.map((p) => field(p, '.status.phase', p.status?.phase)),
    ]
    return [
      {
        subject: signer.statefulSet ? refOf(signer.statefulSet) : refOf(node),
        data: {
          signer: signer.name,
          failing: [...failing.map((p) => `${p.pod} ${p.target.split('/').pop()}`), ...notReady.map((p) => `${p.metadata.name} readiness`)],
          running,
          pods: signer.pods.length,
        },
        evidence,
      },
    ]
  },
  summary: (d) => (d.failing.length ? `signer ${d.signer}: ${d.failing.join(', ')} failing` : `signer ${d.signer}: no instance is running (${d.pods} Pod(s))`),
  cause: () => 'a signer instance that is not live or not ready (backend, Raft store or preflight not initialised) cannot sign for the node',
  action: (_d, on) => `Read the signer leader logs and check its secrets-store backend and credentials (chainnode signer ${nodeArgs(on)} shows each instance).`,
})
