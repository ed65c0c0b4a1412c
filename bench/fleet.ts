import { Api } from '../test/cluster/scenarios/lib/api.js'
import type { ScenarioCtx } from '../test/cluster/scenarios/types.js'

/** A namespace with `size` ChainNodes, each with its ConfigMap and a running Pod on the kwok node. */
export async function seedFleet(ctx: ScenarioCtx, namespace: string, size: number): Promise<void> {
  const api = new Api(ctx)
  try {
    await api.upsert({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })
    const names = Array.from({ length: size }, (_, i) => `node-${String(i).padStart(4, '0')}`)
    const batch = async <T>(items: T[], work: (item: T) => Promise<unknown>) => {
      for (let i = 0; i < items.length; i += 25) await Promise.all(items.slice(i, i + 25).map(work))
    }
    await batch(names, async (name) => {
      const node = await api.upsert<
        Record<string, unknown> & { apiVersion: string; kind: string; metadata: { name: string; namespace: string; uid?: string } }
      >({
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNode',
        metadata: { name, namespace },
        spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }, genesis: { url: 'https://example.invalid/genesis.json' } },
      })
      await api.upsert({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name, namespace, annotations: { 'cosmopilot.voluzi.com/config-hash': '42' } },
        data: { 'config.toml': 'moniker = "x"\n' },
      })
      await api.upsert({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name,
          namespace,
          annotations: { 'cosmopilot.voluzi.com/config-hash': '42' },
          ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name, uid: node.metadata.uid!, controller: true }],
        },
        spec: {
          nodeName: ctx.kwokNode,
          initContainers: [{ name: 'node-utils', image: 'ghcr.io/voluzi/node-utils:4.1.0', restartPolicy: 'Always' }],
          containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0' }],
        },
      })
    })
  } finally {
    api.close()
  }
}
