import { Api, type KObject } from '../test/cluster/scenarios/lib/api.js'
import { podStatus, runningPodStatus } from '../test/cluster/scenarios/lib/podstatus.js'
import type { ScenarioCtx } from '../test/cluster/scenarios/types.js'

/** healthy: every node synced; broken: 1 in 20 broken as the scenarios are; halt: the whole chain stalled at one height. */
export type FleetKind = 'healthy' | 'broken' | 'halt'
type Trouble = 'none' | 'image-pull' | 'not-syncing' | 'node-error' | 'halt'

const CHAIN_ID = 'cosmoshub-4'
const HALT_HEIGHT = 21_456_789
const BROKEN: Trouble[] = ['image-pull', 'not-syncing', 'node-error']

function troubleOf(kind: FleetKind, i: number): Trouble {
  if (kind === 'halt') return 'halt'
  if (kind === 'broken' && i % 20 === 0) return BROKEN[(i / 20) % BROKEN.length]
  return 'none'
}

/**
 * A namespace with `size` ChainNodes with status and Pods as the operator and kubelet write them
 * (Pods on the node nobody manages, so they keep the status written here), and the Events of the broken ones.
 */
export async function seedFleet(ctx: ScenarioCtx, namespace: string, size: number, kind: FleetKind = 'healthy'): Promise<void> {
  const api = new Api(ctx)
  const now = new Date()
  try {
    await api.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })
    const names = Array.from({ length: size }, (_, i) => `node-${String(i).padStart(4, '0')}`)
    const batch = async <T>(items: T[], work: (item: T, i: number) => Promise<unknown>) => {
      for (let i = 0; i < items.length; i += 50) await Promise.all(items.slice(i, i + 50).map((item, j) => work(item, i + j)))
    }
    await batch(names, async (name, i) => {
      const trouble = troubleOf(kind, i)
      const stalled = trouble === 'halt' || trouble === 'not-syncing'
      const node = await api.upsert<KObject>({
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNode',
        metadata: { name, namespace },
        spec: {
          app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: trouble === 'image-pull' ? 'v99.0.0' : 'v25.2.0' },
          genesis: { url: 'https://example.invalid/genesis.json' },
          config: { blockThreshold: '60s' },
        },
      })
      await api.patchStatus(node, {
        phase: trouble === 'node-error' ? 'Error' : trouble === 'not-syncing' ? 'Syncing' : 'Running',
        chainID: CHAIN_ID,
        latestHeight: trouble === 'halt' ? HALT_HEIGHT : trouble === 'not-syncing' ? 20_000_000 + i : HALT_HEIGHT + 1000 + (i % 7),
        appVersion: 'v25.2.0',
        validator: false,
        seedMode: false,
        nodeID: `${String(i).padStart(40, '0')}`,
      })
      await api.upsert({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace, annotations: { 'cosmopilot.voluzi.com/config-hash': '42' } },
        data: { 'config.toml': '[p2p]\npersistent_peers = "abc@10.0.0.1:26656"\nseeds = ""\n' },
      })
      const image = `ghcr.io/cosmos/gaia:${trouble === 'image-pull' ? 'v99.0.0' : 'v25.2.0'}`
      const pod = await api.upsert<KObject>({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace,
          labels: { 'chainnode.test/manual-status': 'true' },
          annotations: { 'cosmopilot.voluzi.com/config-hash': '42' },
          ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name, uid: node.metadata.uid!, controller: true }],
        },
        spec: {
          nodeName: ctx.unmanagedNode,
          initContainers: [{ name: 'node-utils', image: 'ghcr.io/voluzi/node-utils:4.1.0', restartPolicy: 'Always' }],
          containers: [{ name: 'app', image }],
        },
      })
      const podIP = `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`
      const status =
        trouble === 'image-pull'
          ? podStatus({
              phase: 'Pending',
              podUid: pod.metadata.uid ?? '',
              startTime: new Date(now.getTime() - 600_000),
              podIP,
              init: [
                {
                  name: 'node-utils',
                  image: 'ghcr.io/voluzi/node-utils:4.1.0',
                  ready: true,
                  state: { running: { startedAt: new Date(now.getTime() - 590_000) } },
                },
              ],
              containers: [{ name: 'app', image, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } } }],
              initialized: true,
              ready: false,
            })
          : runningPodStatus(pod, { now, ageSeconds: 86_400, podIP, ...(stalled || trouble === 'node-error' ? { notReady: ['app'] } : {}) })
      // A Pod without resource requests is BestEffort; the status may not say otherwise.
      await api.patchStatus(pod, { ...status, qosClass: 'BestEffort' })
      const event = (involved: KObject, reason: string, message: string, count: number) =>
        api.upsert({
          apiVersion: 'v1',
          kind: 'Event',
          metadata: { name: `${involved.metadata.name}.${reason.toLowerCase()}`, namespace },
          involvedObject: { apiVersion: involved.apiVersion, kind: involved.kind, name: involved.metadata.name, namespace, uid: involved.metadata.uid },
          reason,
          message,
          type: 'Warning',
          count,
          firstTimestamp: new Date(now.getTime() - 1_800_000).toISOString(),
          lastTimestamp: new Date(now.getTime() - 20_000).toISOString(),
          source: { component: 'kubelet' },
        })
      if (stalled) await event(pod, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 417', 90)
      if (trouble === 'image-pull') await event(pod, 'Failed', `Failed to pull image "${image}": not found`, 12)
      if (trouble === 'node-error') await event(node, 'NodeError', 'pod did not start within 5m0s', 1)
    })
  } finally {
    api.close()
  }
}
