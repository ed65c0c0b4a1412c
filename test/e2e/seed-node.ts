import { inject } from 'vitest'
import { apply, patchStatus, type KubeObject } from '../cluster/kube.js'

export interface NodeSeed {
  labels?: Record<string, string>
  annotations?: Record<string, string>
  status?: Record<string, unknown>
  /** Pod containers; the Pod is left out when absent. */
  containers?: Record<string, unknown>[]
  initContainers?: Record<string, unknown>[]
  podLabels?: Record<string, string>
}

/** A ChainNode in its namespace and, when containers are given, its Pod on the kwok node, owned by it. */
export async function seedNode(namespace: string, name: string, seed: NodeSeed = {}): Promise<{ uid: string }> {
  await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })
  const node = await apply({
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name, namespace, labels: seed.labels ?? {}, annotations: seed.annotations ?? {} },
    spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }, genesis: { url: 'https://example.invalid/genesis.json' } },
  })
  if (seed.status) await patchStatus(node, { status: seed.status })
  const uid = (node.metadata as { uid?: string }).uid!
  if (seed.containers) {
    await apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace,
        labels: seed.podLabels ?? {},
        ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name, uid, controller: true }],
      },
      spec: { nodeName: inject('kwokNode'), initContainers: seed.initContainers ?? [], containers: seed.containers },
    })
  }
  return { uid }
}

/** The Event the operator records when a node's data volume reached its maximum size (rule data-volume-full), as of now. */
export function volumeFullEvent(namespace: string, node: string, uid: string): KubeObject {
  const now = new Date().toISOString()
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${node}.full`, namespace },
    involvedObject: { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name: node, namespace, uid },
    reason: 'PvcMaxSizeReached',
    message: 'Data volume reached maximum allowed size (2Ti)',
    type: 'Warning',
    count: 1,
    firstTimestamp: now,
    lastTimestamp: now,
    source: { component: 'chainnode-controller' },
  }
}
