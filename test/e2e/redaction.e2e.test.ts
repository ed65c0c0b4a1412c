import { mkdtempSync, readFileSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { useCluster } from '../cluster/kube.js'
import { setLogs } from '../cluster/logs.js'
import { runCli } from '../helpers/cli.js'
import { seedNode } from './seed-node.js'

const NS = 't-redact'
const SECRETS = {
  vaultToken: 'hvs.CAESIPlantedVaultToken0123456789abcdef',
  legacyToken: 's.PlantedLegacyToken0123456',
  pem: 'MIIEpAIBAAKCAQEAplantedprivatekeymaterial',
  validatorKey: 'cGxhbnRlZHZhbGlkYXRvcmtleXBsYW50ZWR2YWxpZA==',
  mnemonic12: 'wrist wait whip bronze gallery cotton glow awkward wife shift river quiz',
  mnemonic24:
    'abandon ability able about above absent absorb abstract absurd abuse access accident account accuse achieve acid acoustic acquire across act action actor actress actual',
  envToken: 'plain-env-token-value-0042',
  annotationToken: 'hvb.PlantedBatchTokenInAnnotation0123',
}

const allFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? allFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))

describe('secrets never reach output or bundles unless --no-redact', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await seedNode(NS, 'secret-0', {
      annotations: { 'vault.hashicorp.com/token': SECRETS.annotationToken },
      status: { phase: 'Running', validator: true, chainID: 'test-1' },
      containers: [
        { name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0', env: [{ name: 'VAULT_TOKEN', value: SECRETS.envToken }] },
        { name: 'tmkms', image: 'ghcr.io/voluzi/tmkms:0.14.0-vault' },
      ],
    })
    await setLogs(NS, 'secret-0', {
      app: {
        current: [
          `vault login ok token=${SECRETS.vaultToken}`,
          `legacy token ${SECRETS.legacyToken} in use`,
          `restored key -----BEGIN RSA PRIVATE KEY-----${SECRETS.pem}-----END RSA PRIVATE KEY-----`,
          `{"address":"AB12","pub_key":{"type":"tendermint/PubKeyEd25519","value":"cHVi"},"priv_key":{"type":"tendermint/PrivKeyEd25519","value":"${SECRETS.validatorKey}"}}`,
          `imported mnemonic ${SECRETS.mnemonic12}`,
          `seed ${SECRETS.mnemonic24}`,
          'height=100 ordinary line stays readable',
        ],
      },
      tmkms: { current: [`using vault token ${SECRETS.vaultToken}`] },
    })
  })

  it('masks every planted secret in doctor output, logs and a bundle', async () => {
    const env = { KUBECONFIG: inject('kubeconfigPath') }
    const dir = mkdtempSync(path.join(tmpdir(), 'redact-'))
    const outputs = [
      (await runCli(['doctor', 'secret-0', '-n', NS, '-o', 'json', '--fail-on', 'never'], { env })).stdout,
      (await runCli(['logs', 'secret-0', '-n', NS, '-c', 'all'], { env })).stdout,
      (await runCli(['describe', 'secret-0', '-n', NS], { env })).stdout,
    ]
    const collect = await runCli(['collect', 'secret-0', '-n', NS, '--out', path.join(dir, 'b')], { env })
    expect(collect.code).toBe(0)
    const manifest = JSON.parse(readFileSync(path.join(dir, 'b', 'manifest.json'), 'utf8'))
    expect(manifest.redactions).toBeGreaterThanOrEqual(Object.keys(SECRETS).length)
    const bundleText = allFiles(path.join(dir, 'b')).map((file) => readFileSync(file, 'utf8'))
    for (const text of [...outputs, ...bundleText]) {
      for (const [name, secret] of Object.entries(SECRETS)) expect(text.includes(secret), `${name} leaked`).toBe(false)
    }
    expect(outputs[1]).toContain('height=100 ordinary line stays readable')
  })

  it('shows them only with --no-redact', async () => {
    const env = { KUBECONFIG: inject('kubeconfigPath') }
    const { stdout } = await runCli(['logs', 'secret-0', '-n', NS, '--no-redact'], { env })
    expect(stdout).toContain(SECRETS.mnemonic12)
  })
})
