import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { credentialsFor } from '../../src/cluster/auth.js'
import { loadKubeconfig, resolveContext } from '../../src/cluster/kubeconfig.js'
import { UserError } from '../../src/util/errors.js'

const dir = mkdtempSync(path.join(tmpdir(), 'kc-'))
const write = (name: string, text: string) => {
  const file = path.join(dir, name)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, text)
  return file
}

const first = write(
  'a/config',
  `apiVersion: v1
kind: Config
current-context: alpha
contexts:
- {name: alpha, context: {cluster: shared, user: alice, namespace: team-a}}
- {name: both, context: {cluster: shared, user: alice}}
clusters:
- {name: shared, cluster: {server: "https://first.example:6443", certificate-authority: certs/ca.crt}}
users:
- {name: alice, user: {token: from-first}}
`,
)
const second = write(
  'b/config',
  `apiVersion: v1
kind: Config
current-context: beta
contexts:
- {name: beta, context: {cluster: other, user: bob}}
- {name: both, context: {cluster: other, user: bob}}
clusters:
- {name: shared, cluster: {server: "https://second.example:6443"}}
- {name: other, cluster: {server: "https://other.example:6443", insecure-skip-tls-verify: true}}
users:
- {name: alice, user: {token: from-second}}
- {name: bob, user: {token: bob-token}}
`,
)

describe('kubeconfig merging (kubectl rules)', () => {
  it('lets the first file that sets current-context win, and the first definition of each name win', async () => {
    const merged = await loadKubeconfig([first, second])
    expect(merged.currentContext).toBe('alpha')
    expect(merged.clusters.get('shared')?.server).toBe('https://first.example:6443')
    expect(merged.users.get('alice')?.token).toBe('from-first')
    expect(merged.contexts.get('both')?.user).toBe('alice')
    expect(merged.contexts.get('beta')?.user).toBe('bob')
  })

  it('takes current-context from a later file when earlier ones do not set it', async () => {
    const noCurrent = write('c/config', 'apiVersion: v1\nkind: Config\nclusters: []\n')
    expect((await loadKubeconfig([noCurrent, second])).currentContext).toBe('beta')
  })

  it('resolves relative certificate paths against the file that declared them', async () => {
    const merged = await loadKubeconfig([first, second])
    expect(merged.clusters.get('shared')?.certificateAuthority).toBe(path.join(dir, 'a', 'certs', 'ca.crt'))
  })

  it('reads KUBECONFIG as a path list, skipping missing entries, and honours --context and -n', async () => {
    const env = { KUBECONFIG: [path.join(dir, 'missing'), second, first].join(path.delimiter), HOME: dir }
    const ctx = await resolveContext({ env })
    expect(ctx.contextName).toBe('beta')
    expect(ctx.cluster.insecureSkipTlsVerify).toBe(true)
    const alpha = await resolveContext({ env, context: 'alpha' })
    expect(alpha.namespace).toBe('team-a')
    expect((await resolveContext({ env, context: 'alpha', namespace: 'x' })).namespace).toBe('x')
    expect((await credentialsFor(alpha)).headers.Authorization).toBe('Bearer from-second')
  })

  it('gives one clear usage error for an unknown context, malformed YAML and a missing file', async () => {
    await expect(resolveContext({ kubeconfig: first, context: 'nope' })).rejects.toThrow(/context "nope" is not in the kubeconfig \(known: alpha, both\)/)
    const bad = write('bad', 'clusters: [\n')
    await expect(resolveContext({ kubeconfig: bad })).rejects.toBeInstanceOf(UserError)
    await expect(resolveContext({ kubeconfig: path.join(dir, 'nothing') })).rejects.toThrow(/does not exist/)
    const scalar = write('scalar', 'just a string\n')
    await expect(resolveContext({ kubeconfig: scalar })).rejects.toThrow(/not a kubeconfig/)
  })

  it('says that the file KUBECONFIG names does not exist, rather than that KUBECONFIG is unset', async () => {
    const env = { KUBECONFIG: '/nonexistent/kubeconfig', HOME: dir }
    await expect(resolveContext({ env })).rejects.toThrow(/^kubeconfig \/nonexistent\/kubeconfig \(from KUBECONFIG\) does not exist$/)
    await expect(resolveContext({ env: { HOME: dir } })).rejects.toThrow(/KUBECONFIG is unset/)
  })

  it('falls back to the in-cluster service account when there is no kubeconfig', async () => {
    const sa = path.join(dir, 'sa')
    write('sa/token', 'sa-token\n')
    write('sa/namespace', 'cosmopilot-system')
    write('sa/ca.crt', 'CA')
    const env = {
      HOME: path.join(dir, 'nohome'),
      KUBERNETES_SERVICE_HOST: '10.0.0.1',
      KUBERNETES_SERVICE_PORT: '443',
      KUBECTL_CHAINNODE_SERVICEACCOUNT_DIR: sa,
    }
    const ctx = await resolveContext({ env })
    expect(ctx).toMatchObject({ inCluster: true, namespace: 'cosmopilot-system', cluster: { server: 'https://10.0.0.1:443' } })
    const creds = await credentialsFor(ctx)
    expect(creds.headers.Authorization).toBe('Bearer sa-token')
    expect(creds.ca).toBe('CA')
  })

  it('runs exec credential plugins and uses the token they print', async () => {
    const plugin = write(
      'plugin.sh',
      '#!/bin/sh\necho \'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"exec-token"}}\'\n',
    )
    const { chmodSync } = await import('node:fs')
    chmodSync(plugin, 0o755)
    const config = write(
      'exec/config',
      `current-context: e\ncontexts: [{name: e, context: {cluster: c, user: u}}]\nclusters: [{name: c, cluster: {server: "https://x:1"}}]\nusers: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: ${plugin}}}}]\n`,
    )
    const creds = await credentialsFor(await resolveContext({ kubeconfig: config }))
    expect(creds.headers.Authorization).toBe('Bearer exec-token')
  })
})
