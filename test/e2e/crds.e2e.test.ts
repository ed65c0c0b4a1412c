import { beforeAll, describe, expect, inject, it } from 'vitest'
import { chainNodeCrd, chainNodeSetCrd } from '../cluster/crds/cosmopilot.js'
import { clusterKube, KubeError, useCluster, type Kube } from '../cluster/kube.js'

const NS = 't-crds'
const GROUP_PATH = `/apis/cosmopilot.voluzi.com/v1/namespaces/${NS}`
const chainNode = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'cosmopilot.voluzi.com/v1',
  kind: 'ChainNode',
  metadata: { name, namespace: NS },
  spec,
})
const app = { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }

/** The API server serves the project's own CRDs (test/cluster/crds/) as it would serve the operator's. */
describe("the test cluster's CRDs, as the API server serves them", () => {
  let kube: Kube
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    kube = clusterKube()
    await kube.ensureNamespace(NS)
  })

  it('refuses a ChainNode without the fields the operator requires', async () => {
    const refusal = await kube.create(chainNode('no-image', { app: { app: 'gaiad' } })).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(KubeError)
    expect((refusal as KubeError).status).toBe(422)
    expect((refusal as KubeError).message).toMatch(/spec\.app\.image: Required value/)
    const badEnum = await kube.create(chainNode('bad-sdk', { app: { ...app, sdkVersion: 'v0.99' } })).catch((error: unknown) => error)
    expect((badEnum as KubeError).message).toMatch(/spec\.app\.sdkVersion: Unsupported value: "v0\.99"/)
  })

  it('keeps the fields we model and the free-form config override, and prunes what the operator has no field for', async () => {
    const created = await kube.create(
      chainNode('pruned', {
        app,
        config: { override: { 'app.toml': { pruning: 'custom' } }, blockThreshold: '30s' },
        persistence: { size: '10Gi', autoResize: true },
        notAField: 'gone',
      }),
    )
    const spec = (created as unknown as { spec: Record<string, unknown> }).spec
    expect(spec).toEqual({
      app,
      config: { override: { 'app.toml': { pruning: 'custom' } }, blockThreshold: '30s' },
      persistence: { size: '10Gi', autoResize: true },
    })
  })

  it('shows the printer columns of the operator in the server Table, for ChainNode and ChainNodeSet', async () => {
    for (const [plural, crd] of [
      ['chainnodes', chainNodeCrd],
      ['chainnodesets', chainNodeSetCrd],
    ] as const) {
      const table = await kube.json<{ columnDefinitions: Array<{ name: string }> }>('GET', `${GROUP_PATH}/${plural}`, {
        accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
      })
      expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', ...crd.spec.versions[0].additionalPrinterColumns!.map((c) => c.name)])
    }
  })

  it('updates status only through the status subresource', async () => {
    const ref = chainNode('status-only', { app })
    await kube.create(ref)
    await kube.patch(ref, { status: { phase: 'Running', validator: false } })
    expect(((await kube.read(ref)) as { status?: unknown }).status).toBeUndefined()
    await kube.patchStatus(ref, { status: { phase: 'Running', validator: false, latestHeight: 42 } })
    expect(((await kube.read(ref)) as { status?: unknown }).status).toEqual({ phase: 'Running', validator: false, latestHeight: 42 })
  })
})
