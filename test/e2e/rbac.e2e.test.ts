import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { load, loadAll } from 'js-yaml'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, clusterKube, readClusterState, useCluster } from '../cluster/kube.js'
import { ROOT, runCli, type CliResult } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

interface PolicyRule {
  apiGroups: string[]
  resources: string[]
  verbs: string[]
}
const manifests = loadAll(readFileSync(path.join(ROOT, 'deploy', 'rbac.yaml'), 'utf8')) as { kind: string; metadata: { name: string }; rules?: PolicyRule[] }[]
const reader = manifests.find((m) => m.kind === 'ClusterRole' && m.metadata.name === 'kubectl-chainnode-reader')!
const portForwardRole = manifests.find((m) => m.kind === 'ClusterRole' && m.metadata.name === 'kubectl-chainnode-portforward')!

/** Bind the no-permission `viewer` user to exactly these rules. */
async function grantViewer(rules: PolicyRule[]) {
  await apply({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'chainnode-test-viewer' }, rules })
  await apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'chainnode-test-viewer' },
    subjects: [{ kind: 'User', name: 'viewer', apiGroup: 'rbac.authorization.k8s.io' }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'chainnode-test-viewer' },
  })
}

/** doctor reads signer and snapshot lists only for nodes that use them: pick a node whose run reads the resources. */
const nodeThatNeeds = (resources: string[]) =>
  resources.some((r) => ['endpointslices', 'networkpolicies'].includes(r))
    ? ['val-0', '-n', 'sc-signer-discovery-timeout']
    : resources.includes('volumesnapshots')
      ? ['snap-0', '-n', 'sc-snapshot-verify']
      : ['fullnode-0', '-n', 'sc-healthy']

const asViewer = (args: string[], extraEnv: Record<string, string> = {}) =>
  runCli([...args, '--context', 'viewer', '--no-probe', '-o', 'json', '--fail-on', 'never'], { env: { KUBECONFIG: inject('kubeconfigPath'), ...extraEnv } })

/** RBAC changes reach the authorizer through an informer: retry until the expected outcome shows. */
async function eventually(run: () => Promise<CliResult>, done: (r: CliResult) => boolean): Promise<CliResult> {
  let last: CliResult | undefined
  for (let i = 0; i < 20; i++) {
    last = await run()
    if (done(last)) return last
    await new Promise((r) => setTimeout(r, 300))
  }
  return last!
}

describe('least-privilege RBAC from deploy/rbac.yaml', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await refreshScenarios()
  })
  afterAll(async () => {
    // Other tests rely on `viewer` having no permissions at all.
    await clusterKube().delete({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: 'chainnode-test-viewer' } })
    await eventually(
      () => runCli(['status', 'fullnode-0', '-n', 'sc-healthy', '--context', 'viewer'], { env: { KUBECONFIG: inject('kubeconfigPath') } }),
      (r) => r.code === 3,
    )
  })

  it('reads everything doctor needs with exactly the reader role: no forbidden read', async () => {
    await grantViewer(reader.rules!)
    const result = await eventually(
      () => asViewer(['doctor', '--all', '-n', 'sc-signer-discovery-timeout']),
      (r) => r.code === 0 && JSON.parse(r.stdout).clusters[0].collectionErrors.length === 0,
    )
    const report = JSON.parse(result.stdout)
    expect(report.clusters[0].collectionErrors).toEqual([])
    expect(report.clusters[0].findings.map((f: { ruleId: string }) => f.ruleId)).toContain('signer-discovery-timeout')
    expect(result.code).toBe(0)
  })

  it.each(reader.rules!.map((rule, i) => [rule.resources.join(','), i] as const))(
    'without the rule for %s: finishes, names what it could not read, exits 3',
    async (_name, i) => {
      await grantViewer(reader.rules!.filter((_, j) => j !== i))
      const result = await eventually(
        () => asViewer(['doctor', ...nodeThatNeeds(reader.rules![i].resources)]),
        (r) => r.code === 3,
      )
      expect(result.code).toBe(3)
      if (reader.rules![i].resources.includes('chainnodes')) {
        expect(result.stderr).toMatch(/^error: not allowed to read ChainNodes/)
        return
      }
      const report = JSON.parse(result.stdout)
      const failed = report.clusters[0].collectionErrors as { what: string; reason: string }[]
      expect(failed.length).toBeGreaterThan(0)
      expect(failed.every((e) => e.reason === 'forbidden')).toBe(true)
      const named = failed.map((e) => e.what).join(' ')
      expect(
        reader.rules![i].resources.some((resource) => named.includes(resource.split('/')[0]) || (resource === 'pods/log' && named.includes('logs of'))),
      ).toBe(true)
    },
  )

  it('without pods/portforward, the chain probe is skipped and named as not checked: exit 3', async () => {
    await grantViewer(reader.rules!)
    const run = () =>
      runCli(['doctor', 'node-0', '-n', 'sc-healthy-chain', '--context', 'viewer', '-o', 'json', '--fail-on', 'never'], {
        env: { KUBECONFIG: inject('kubeconfigPath') },
      })
    const result = await eventually(run, (r) => r.code === 3 && JSON.parse(r.stdout).clusters[0].collectionErrors.length === 1)
    expect(result.code).toBe(3)
    const cluster = JSON.parse(result.stdout).clusters[0]
    expect(cluster.collectionErrors).toEqual([
      {
        what: 'port-forward to pod/node-0:26657 (chain probe not checked)',
        namespace: 'sc-healthy-chain',
        reason: 'forbidden',
        message: expect.stringMatching(/^pods "node-0" is forbidden: User "viewer" cannot \w+ resource "pods\/portforward"/),
      },
    ])
    expect(cluster.nodes[0].chain).toBeUndefined()
  })

  it('with the optional port-forward role, the chain probe measures the node', async () => {
    await grantViewer([...reader.rules!, ...portForwardRole.rules!])
    const run = () =>
      runCli(['doctor', 'node-0', '-n', 'sc-healthy-chain', '--context', 'viewer', '-o', 'json', '--fail-on', 'never'], {
        env: { KUBECONFIG: inject('kubeconfigPath') },
      })
    const result = await eventually(run, (r) => r.code === 0)
    expect(result.code, result.stdout).toBe(0)
    expect(JSON.parse(result.stdout).clusters[0].nodes[0].chain).toMatchObject({ ok: true, detail: expect.stringMatching(/moving/) })
  })

  it('runs inside a Pod with the in-cluster configuration', async () => {
    await grantViewer(reader.rules!)
    const state = readClusterState()
    const sa = mkdtempSync(path.join(tmpdir(), 'sa-'))
    writeFileSync(path.join(sa, 'token'), state.viewerToken)
    writeFileSync(path.join(sa, 'ca.crt'), readFileSync(state.caPath))
    writeFileSync(path.join(sa, 'namespace'), 'sc-healthy')
    const port = new URL(state.server).port
    const result = await eventually(
      () =>
        runCli(['doctor', 'fullnode-0', '--no-probe', '-o', 'json'], {
          env: { KUBECONFIG: '', HOME: sa, KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: port, KUBECTL_CHAINNODE_SERVICEACCOUNT_DIR: sa },
        }),
      (r) => r.code === 0,
    )
    expect(result.code, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.clusters[0].context).toBe('in-cluster')
    expect(report.clusters[0].nodes[0]).toMatchObject({ namespace: 'sc-healthy', name: 'fullnode-0' })
  })

  it('gets a 401 for a wrong token: one line, exit 3', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'badtoken-'))
    const config = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as { users: { user: { token: string } }[] }
    for (const user of config.users) user.user.token = 'not-a-valid-token'
    const file = path.join(dir, 'kubeconfig')
    const { dump } = await import('js-yaml')
    writeFileSync(file, dump(config))
    const result = await runCli(['doctor', 'fullnode-0', '-n', 'sc-healthy', '--kubeconfig', file])
    expect(result.code, result.stderr).toBe(3)
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: the API server rejected the credentials \(401 Unauthorized\)/)])
  })
})
