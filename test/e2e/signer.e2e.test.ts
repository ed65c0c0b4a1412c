import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { apply, patchStatus, useCluster } from '../cluster/kube.js'
import { setLogs } from '../cluster/logs.js'
import { forwardPort } from '../cluster/portforward.js'
import { ROOT, runCli } from '../helpers/cli.js'
import { refreshScenarios } from './scenario-setup.js'

const work = mkdtempSync(path.join(tmpdir(), 'signer-e2e-'))
const children: ChildProcess[] = []

/** The signer stand-in (test/signerd), built with the Go toolchain (cached by Go's build cache). */
function signerdBinary(): string {
  const fromTools = path.join(inject('binDir'), 'signerd')
  if (existsSync(fromTools)) return fromTools
  const out = path.join(work, 'signerd')
  const build = spawnSync('go', ['build', '-o', out, '.'], {
    cwd: path.join(ROOT, 'test', 'signerd'),
    env: { ...process.env, GOTOOLCHAIN: 'local', CGO_ENABLED: '0' },
    encoding: 'utf8',
  })
  if (build.status !== 0) throw new Error(`building signerd: ${build.stderr}`)
  return out
}

async function startSignerd(name: string, args: string[]): Promise<{ http: number; gate: number }> {
  const portFile = path.join(work, `${name}.ports`)
  const child = spawn(signerdBinary(), ['-port-file', portFile, ...args], { stdio: 'ignore' })
  children.push(child)
  for (let i = 0; i < 100 && !existsSync(portFile); i++) await new Promise((r) => setTimeout(r, 50))
  const [, http, gate] = /http=(\d+) gate=(\d+)/.exec(readFileSync(portFile, 'utf8'))!
  return { http: Number(http), gate: Number(gate) }
}

interface SignerSetup {
  signerdArgs: string[]
  signerImage: string
  blockedByPolicy?: boolean
}

/** A 5.0.0-line signer target `v-0` and its signer `sig` (StatefulSet, Pod sig-0, discovery Service sig-privval). */
async function seed(ns: string, setup: SignerSetup) {
  const ports = await startSignerd(ns, setup.signerdArgs)
  await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })
  const node = await apply({
    apiVersion: 'cosmopilot.voluzi.com/v1',
    kind: 'ChainNode',
    metadata: { name: 'v-0', namespace: ns, labels: { 'cosmosigner-target': 'sig' } },
    spec: { app: { app: 'gaiad', image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0' }, genesis: { url: 'https://example.invalid/g.json' }, validator: {} },
  })
  await patchStatus(node, { status: { phase: 'Running', validator: true, chainID: 'test-1' } })
  const uid = (node.metadata as { uid?: string }).uid!
  await apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'v-0',
      namespace: ns,
      labels: { 'cosmosigner-target': 'sig', validator: 'true' },
      ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name: 'v-0', uid, controller: true }],
    },
    spec: {
      nodeName: inject('kwokNode'),
      initContainers: [
        { name: 'node-utils', image: 'ghcr.io/voluzi/node-utils:4.1.0', restartPolicy: 'Always' },
        {
          name: 'wait-cosmosigner-discovery',
          image: 'ghcr.io/voluzi/node-utils:4.1.0',
          args: ['wait-for-signer', '26659', `sig-privval.${ns}.svc`, '$(POD_IP)', '25s'],
        },
      ],
      containers: [{ name: 'app', image: 'ghcr.io/cosmos/gaia:v25.2.0', ports: [{ name: 'privvalidator', containerPort: 26659 }] }],
    },
  })
  await apply({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'sig', namespace: ns },
    spec: {
      replicas: 1,
      serviceName: 'sig',
      selector: { matchLabels: { 'app.kubernetes.io/instance': 'sig' } },
      template: { metadata: { labels: { 'app.kubernetes.io/instance': 'sig' } }, spec: { containers: [{ name: 'cosmosigner', image: setup.signerImage }] } },
    },
  })
  await apply({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'sig-0', namespace: ns, labels: { 'app.kubernetes.io/name': 'cosmosigner', 'app.kubernetes.io/instance': 'sig' } },
    spec: { nodeName: inject('kwokNode'), containers: [{ name: 'cosmosigner', image: setup.signerImage, ports: [{ name: 'http', containerPort: 8080 }] }] },
  })
  await apply({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'sig-privval', namespace: ns },
    spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'cosmosigner-target': 'sig' }, ports: [{ name: 'privvalidator', port: 26659 }] },
  })
  // Both, as the endpoint controllers write them; doctor reads the slices and Endpoints only where slices are missing.
  await apply({
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: { name: 'sig-privval-x1', namespace: ns, labels: { 'kubernetes.io/service-name': 'sig-privval' } },
    addressType: 'IPv4',
    endpoints: [{ addresses: ['10.244.0.99'], conditions: { ready: true }, targetRef: { kind: 'Pod', name: 'sig-0', namespace: ns } }],
    ports: [{ name: 'privvalidator', port: 26659, protocol: 'TCP' }],
  })
  await apply({
    apiVersion: 'v1',
    kind: 'Endpoints',
    metadata: { name: 'sig-privval', namespace: ns },
    subsets: [
      { addresses: [{ ip: '10.244.0.99', targetRef: { kind: 'Pod', name: 'sig-0', namespace: ns } }], ports: [{ name: 'privvalidator', port: 26659 }] },
    ],
  })
  if (setup.blockedByPolicy) {
    await apply({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'p2p-only', namespace: ns },
      spec: { podSelector: { matchLabels: { validator: 'true' } }, policyTypes: ['Ingress'], ingress: [{ ports: [{ protocol: 'TCP', port: 26656 }] }] },
    })
  }
  await forwardPort(ns, 'sig-0', 8080, ports.http)
  await forwardPort(ns, 'sig-0', 26659, ports.gate, { probe: 'connect' })
  await setLogs(ns, 'v-0', { app: { current: ['{"level":"info","msg":"started node","height":10}'] } })
}

const signer = (ns: string, extra: string[] = []) =>
  runCli(['signer', 'v-0', '-n', ns, '--gate-timeout', '3s', ...extra], { env: { KUBECONFIG: inject('kubeconfigPath') } })
const doctorRules = async (ns: string) => {
  await refreshScenarios()
  return JSON.parse(
    (await runCli(['doctor', 'v-0', '-n', ns, '--gate-timeout', '3s', '-o', 'json', '--fail-on', 'never'], { env: { KUBECONFIG: inject('kubeconfigPath') } }))
      .stdout,
  ).clusters[0].findings.map((f: { ruleId: string }) => f.ruleId)
}

describe('signer: the remote signer path end to end', () => {
  beforeAll(async () => {
    useCluster(inject('clusterDir'))
    await Promise.all([
      seed('t-signer-ok', { signerdArgs: [], signerImage: 'ghcr.io/voluzi/cosmosigner:3.1.0' }),
      seed('t-signer-notready', { signerdArgs: ['-ready=false'], signerImage: 'ghcr.io/voluzi/cosmosigner:3.1.0' }),
      seed('t-signer-silent', { signerdArgs: ['-silent'], signerImage: 'ghcr.io/voluzi/cosmosigner:3.1.0' }),
      seed('t-signer-blocked', { signerdArgs: [], signerImage: 'ghcr.io/voluzi/cosmosigner:3.1.0', blockedByPolicy: true }),
      seed('t-signer-old', { signerdArgs: [], signerImage: 'ghcr.io/voluzi/cosmosigner:3.0.2' }),
    ])
  })
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL')
  })

  it('passes a healthy signer: both probes ready and data on 26659', async () => {
    const result = await signer('t-signer-ok')
    expect(result.code, result.stdout + result.stderr).toBe(0)
    expect(result.stdout).toMatch(/sig-0\s+Running\s+HTTP 200: ok\s+HTTP 200: ok/)
    expect(result.stdout).toMatch(/pod\/sig-0:26659: \d+ byte\(s\) after \d+ ms/)
    expect(result.stdout).toMatch(/No problems found on the signing path/)
    expect(await doctorRules('t-signer-ok')).toEqual([])
  })

  it('reports an instance that is not ready', async () => {
    const result = await signer('t-signer-notready')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/sig-0 readyz: HTTP 503/)
    expect(await doctorRules('t-signer-notready')).toEqual(['signer-unhealthy'])
  })

  it('fails the gate when the signer connects but sends nothing', async () => {
    const result = await signer('t-signer-silent')
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/no data arrived within 3s \(a bare connection does not pass the gate\)/)
    expect(await doctorRules('t-signer-silent')).toEqual(['signer-discovery-timeout'])
  })

  it('names a NetworkPolicy that would block TCP 26659', async () => {
    const result = await signer('t-signer-blocked', ['-o', 'json'])
    expect(result.code).toBe(1)
    expect(JSON.parse(result.stdout).problems).toEqual(['NetworkPolicy p2p-only would block TCP 26659 between the signer and the node'])
  })

  it('flags a signer image below 3.1.0, and skips the probes with --no-probe', async () => {
    const result = await signer('t-signer-old', ['--no-probe'])
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/signer image ghcr.io\/voluzi\/cosmosigner:3.0.2 is older than 3.1.0/)
    expect(result.stdout).toMatch(/not probed/)
    expect(await doctorRules('t-signer-old')).toEqual(['component-version'])
  })

  it('detects the legacy signer and gives the migration advice', async () => {
    const result = await runCli(['signer', 'tmkms-0', '-n', 'sc-legacy-signing'], { env: { KUBECONFIG: inject('kubeconfigPath') } })
    expect(result.code).toBe(1)
    expect(result.stdout).toMatch(/Legacy signer:\s+containers tmkms, vault-token-renewer/)
    expect(result.stdout).toMatch(/autoRenewToken:\s+true/)
    expect(result.stdout).toMatch(/migration must be completed on 4\.x following the 5\.0\.0 upgrade guide/)
    expect(result.stdout).toMatch(/permission denied/)
  })
})
