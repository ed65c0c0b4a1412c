import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { onlyReconcilingReleases } from '../../src/app/snapshots.js'
import { UNREDACTED_MARK } from '../../src/render/output.js'
import { MASK, Redactor, redactSnapshot } from '../../src/snapshot/redact.js'
import type { KubeObject, Snapshot } from '../../src/snapshot/types.js'
import { runCli } from '../helpers/cli.js'
import { bundleFiles, smallSnapshot, writeBundleFolder } from '../helpers/hostile.js'

const work = mkdtempSync(path.join(tmpdir(), 'leaks-'))

function folder(name: string, snapshot: Snapshot): string {
  return writeBundleFolder(path.join(work, name), bundleFiles(snapshot))
}

const release = (namespace: string, worker: string): KubeObject[] => [
  {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cosmopilot', namespace, labels: { 'app.kubernetes.io/name': 'cosmopilot' } },
    spec: {
      selector: { matchLabels: { app: `op-${worker}` } },
      template: { spec: { containers: [{ name: 'manager', image: 'ghcr.io/voluzi/cosmopilot:v3.0.0', env: [{ name: 'WORKER_NAME', value: worker }] }] } },
    },
  },
  {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `cosmopilot-${worker}-abc`, namespace, labels: { app: `op-${worker}` } },
    spec: { containers: [{ name: 'manager' }] },
  },
]

describe('secrets that leaked in round 2', () => {
  it('--no-redact warns on stderr and marks text output; JSON stays parseable', async () => {
    const snapshot = smallSnapshot()
    snapshot.logs[0].text = 'vault login ok token=hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ\n'
    const dir = folder('unredacted', snapshot)
    const text = await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', dir, '--no-redact'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stderr).toMatch(/^warning: --no-redact: keys, tokens, mnemonics and passwords are shown as they are/m)
    expect(text.stdout.split('\n')[0]).toBe(UNREDACTED_MARK)
    expect(text.stdout).toContain('hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ')
    const json = await runCli(['status', '--bundle', dir, '--no-redact', '-o', 'json'])
    expect(json.stderr).toMatch(/^warning: --no-redact/m)
    expect(() => JSON.parse(json.stdout)).not.toThrow()
    const masked = await runCli(['logs', 'node-0', '-c', 'node-utils', '--bundle', dir])
    expect(masked.stderr).not.toMatch(/--no-redact/)
    expect(masked.stdout).not.toContain(UNREDACTED_MARK)
    expect(masked.stdout).not.toContain('hvs.CAESIJ8x1Fq2ZbYtQ9r0uVwXyZaBcDeFgHiJ')
  })

  it('Secret names stay visible (privateKeySecret names a Secret, it is not one); Secret content keys stay masked', () => {
    const node = {
      spec: { validator: { privateKeySecret: 'val-0-priv-key', tmKMS: { provider: { vault: { credentialsSecret: 'vault-creds', token: 'abc' } } } } },
      status: { raftTLSSecret: 'signer-tls' },
    }
    const out = new Redactor().value(node)
    expect(out.spec.validator.privateKeySecret).toBe('val-0-priv-key')
    expect(out.spec.validator.tmKMS.provider.vault.credentialsSecret).toBe('vault-creds')
    expect(out.status.raftTLSSecret).toBe('signer-tls')
    expect(out.spec.validator.tmKMS.provider.vault.token).toBe(MASK)
    expect(new Redactor().value({ clientSecret: 'x', privateKey: 'y', secret: 'z' })).toEqual({ clientSecret: MASK, privateKey: MASK, secret: MASK })
  })

  it('describe shows the privateKeySecret name from a redacted bundle', async () => {
    const snapshot = smallSnapshot()
    const node = snapshot.objects[0]
    node.spec = { validator: { privateKeySecret: 'val-0-priv-key' } }
    const result = await runCli(['describe', 'node-0', '-n', 'ns', '--bundle', folder('secret-name', redactSnapshot(snapshot))])
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('val-0-priv-key')
  })

  it('a bundle of one node holds only the operator releases that reconcile it', () => {
    const snapshot = smallSnapshot()
    snapshot.scope = { kind: 'node', namespace: 'ns', name: 'node-0' }
    snapshot.objects[0].metadata.labels = { 'worker-name': 'team-a' }
    snapshot.objects.push(...release('cosmopilot-a', 'team-a'), ...release('other-team', 'team-b'))
    snapshot.logs.push({ namespace: 'other-team', pod: 'cosmopilot-team-b-abc', container: 'manager', previous: false, truncated: false, text: 'theirs' })
    const kept = onlyReconcilingReleases(snapshot)
    const names = kept.objects.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`)
    expect(names).toContain('Deployment cosmopilot-a/cosmopilot')
    expect(names).toContain('Pod cosmopilot-a/cosmopilot-team-a-abc')
    expect(names.filter((n) => n.includes('other-team'))).toEqual([])
    expect(kept.logs.map((l) => l.namespace)).not.toContain('other-team')
    // A namespace or the whole cluster keeps every release: each may reconcile a node in scope.
    expect(onlyReconcilingReleases({ ...snapshot, scope: { kind: 'namespace', namespace: 'ns' } }).objects).toHaveLength(snapshot.objects.length)
  })
})
