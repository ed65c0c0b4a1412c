/**
 * deploy/serve applied to the test cluster, and `chainnode serve` run with the token of its ServiceAccount: the
 * RBAC there is enough (a whole cycle over every namespace, probes included, without one forbidden read) and not
 * more (no Secret, no write but the port-forward).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { dump, load, loadAll } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, clusterKube, Kube, readClusterState, useCluster, type KubeObject } from '../cluster/kube.js'
import { ROOT } from '../helpers/cli.js'
import { eventually, startServe, type ServeProcess } from '../helpers/serve.js'
import { refreshScenarios } from './scenario-setup.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
const manifests = (file: string) => loadAll(readFileSync(path.join(ROOT, 'deploy', 'serve', file), 'utf8')) as KubeObject[]
const SA = { namespace: 'kubectl-chainnode', name: 'chainnode-serve' }

describe('deploy/serve RBAC on the test cluster', () => {
  let token: string
  let serve: ServeProcess

  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
    for (const object of [...manifests('rbac.yaml'), ...manifests('deployment.yaml')]) await apply(object)
    const request = await clusterKube().json<any>('POST', `/api/v1/namespaces/${SA.namespace}/serviceaccounts/${SA.name}/token`, {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
    })
    token = request.status.token
    // The admin kubeconfig with the ServiceAccount's token in place of every user's credentials.
    const kubeconfig = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as any
    kubeconfig.users = kubeconfig.users.map((u: any) => ({ name: u.name, user: { token } }))
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'serve-rbac-')), 'kubeconfig')
    writeFileSync(file, dump(kubeconfig))
    serve = await startServe(['-A', '--interval', '5s', '--gate-timeout', '2s', '--probe-window', '1s'], { KUBECONFIG: file })
  })
  afterAll(() => {
    if (serve?.child.exitCode === null) serve.child.kill('SIGKILL')
  })

  it('the Deployment and Service are accepted by the API server as written', async () => {
    const kube = clusterKube()
    const deployment = await kube.json<any>('GET', `/apis/apps/v1/namespaces/${SA.namespace}/deployments/chainnode-serve`)
    expect(deployment.spec.template.spec.serviceAccountName).toBe(SA.name)
    expect((await kube.request('GET', `/api/v1/namespaces/${SA.namespace}/services/chainnode-serve`)).status).toBe(200)
  })

  it('is enough: a cycle over every namespace with the probes reads everything, nothing forbidden', async () => {
    const report = await eventually(async () => {
      const res = await fetch(`${serve.url}/report`)
      return res.status === 200 ? ((await res.json()) as any) : undefined
    }, 'the first report')
    const errors = report.clusters.flatMap((c: any) => c.collectionErrors)
    expect(errors.filter((e: any) => e.reason === 'forbidden' || e.reason === 'unauthorized')).toEqual([])
    const nodes = report.clusters.flatMap((c: any) => c.nodes)
    expect(nodes.length).toBeGreaterThan(10)
    // The chain probe went through a port-forward: pods/portforward is granted.
    const probed = nodes.find((n: any) => n.namespace === 'sc-healthy-chain' && n.name === 'node-0')
    expect(probed.chain).toMatchObject({ ok: true })
    // No probe was refused either (a scenario's own text may say "forbidden": the quota one does).
    expect(nodes.filter((n: any) => /forbidden|unauthorized/i.test(n.chain?.detail ?? ''))).toEqual([])
    expect(serve.stderr()).not.toMatch(/forbidden/i)
  })

  it('is not more: no Secret, and no write but the port-forward', async () => {
    const { server, caPath } = readClusterState()
    const asServe = new Kube({ server, token, ca: readFileSync(caPath) })
    const can = async (attributes: Record<string, string>) =>
      (
        await asServe.json<any>('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
          body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: attributes } },
        })
      ).status.allowed
    expect(await can({ verb: 'list', resource: 'chainnodes', group: 'cosmopilot.voluzi.com' })).toBe(true)
    expect(await can({ verb: 'create', resource: 'pods', subresource: 'portforward', namespace: 'sc-healthy-chain' })).toBe(true)
    const denied: Record<string, string>[] = [
      { verb: 'get', resource: 'secrets', namespace: 'sc-healthy-chain' },
      { verb: 'list', resource: 'secrets' },
      { verb: 'create', resource: 'pods', subresource: 'exec', namespace: 'sc-healthy-chain' },
      { verb: 'delete', resource: 'pods', namespace: 'sc-healthy-chain' },
      { verb: 'patch', resource: 'chainnodes', group: 'cosmopilot.voluzi.com', namespace: 'sc-healthy-chain' },
      { verb: 'update', resource: 'configmaps', namespace: 'sc-healthy-chain' },
      { verb: 'create', resource: 'events', namespace: 'sc-healthy-chain' },
    ]
    for (const attributes of denied) expect(await can(attributes), JSON.stringify(attributes)).toBe(false)
  })

  it('ends within a second of SIGTERM', async () => {
    const { code, ms } = await serve.stop()
    expect(code).toBe(0)
    expect(ms).toBeLessThan(1000)
  })
})
