import { refOf } from '../snapshot/index.js'
import { defineRule } from '../engine/define-rule.js'
import { field } from '../engine/evidence.js'

export default defineRule<{ worker: string }>({
  id: 'operator-missing',
  title: 'No operator release reconciles this node',
  severity: 'error',
  specRow: '§1.1 and reference §7.5: a node is reconciled by the operator release whose WORKER_NAME equals its worker-name label',
  explains: ['phase-stuck'],
  check({ index, node }) {
    // Without permission to list Deployments we cannot tell; that is reported as an incomplete read instead.
    if (index.snapshot.collectionErrors.some((e) => /deployments/.test(e.what))) return []
    if (index.operatorFor(node)) return []
    const worker = node.metadata.labels?.['worker-name'] ?? ''
    return [
      {
        subject: refOf(node),
        data: { worker },
        evidence: [
          field(node, 'labels["worker-name"]', worker || undefined),
          {
            kind: 'missing',
            source: 'Deployment',
            text: `no cosmopilot operator Deployment${worker ? ` with WORKER_NAME=${worker}` : ' without a WORKER_NAME'} in the cluster`,
          },
        ],
      },
    ]
  },
  summary: (d) => `no operator release reconciles this node${d.worker ? ` (worker ${d.worker})` : ''}`,
  cause: (d) =>
    d.worker
      ? `no operator runs with WORKER_NAME=${d.worker}; nodes are only reconciled by the release whose worker name matches their worker-name label`
      : 'the cosmopilot operator is not installed (no Deployment labelled app.kubernetes.io/name=cosmopilot, nor one running a cosmopilot manager image)',
  action: (d) =>
    d.worker
      ? `Install an operator release with workerName=${d.worker}, or remove the worker-name label from the node.`
      : 'Install the cosmopilot operator (after the certificate manager), e.g. helm install cosmopilot oci://ghcr.io/voluzi/helm/cosmopilot --namespace cosmopilot-system --create-namespace.',
})
