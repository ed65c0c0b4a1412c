/**
 * The spec's manual diagnostic procedure, done with real kubectl against the real test cluster:
 *
 *   1. kubectl get chainnode NAME -o wide; kubectl describe chainnode NAME;
 *      kubectl get events --sort-by=.lastTimestamp
 *   2. kubectl describe pod; kubectl logs -c app; kubectl logs -c node-utils; kubectl logs --previous
 *   3. operator logs
 *   + kubectl port-forward pod/POD LOCAL:6666, then GET /debug/pprof/heap (a gzipped pprof profile)
 *
 * Uses the version-matched kubectl built by scripts/build-tools.sh, and /usr/bin/kubectl once.
 * It is also the acceptance test of the harness itself (CRDs, kwok stages, the unmanaged-status
 * pod-ready variant, Logs and PortForward CRs, RBAC).
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { MANUAL_STATUS_LABEL } from '../cluster/cluster.js'
import { clusterKube, rawRequest, sleep, useCluster, waitUntil, type KubeObject } from '../cluster/kube.js'
import { setLogs } from '../cluster/logs.js'
import { forwardPort } from '../cluster/portforward.js'

const execFileP = promisify(execFile)

const clusterDir = inject('clusterDir')
useCluster(clusterDir)
const kubeconfigPath = inject('kubeconfigPath')
const KUBECTL = join(inject('binDir'), 'kubectl')
const SYSTEM_KUBECTL = '/usr/bin/kubectl'

// Own namespaces and labels: the global setup may also seed the scenarios (another operator install).
const NS = 'mp-cosmoshub'
const NODE = 'cosmoshub-0'
const OP_NS = 'mp-cosmopilot-system'
const OP_LABEL = 'chainnode.test/suite=manual-procedure'
const OP_POD = 'cosmopilot-controller-manager-7d9f8b6c5-x2k4q'

interface Run {
  code: number
  stdout: string
  stderr: string
}

async function kubectl(args: string[], bin = KUBECTL): Promise<Run> {
  try {
    const { stdout, stderr } = await execFileP(bin, args, {
      env: { ...process.env, KUBECONFIG: kubeconfigPath, NO_COLOR: '1' },
      timeout: 30_000,
      maxBuffer: 16 << 20,
    })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string }
    return { code: typeof x.code === 'number' ? x.code : 1, stdout: x.stdout ?? '', stderr: x.stderr ?? String(e) }
  }
}

async function ok(args: string[], bin = KUBECTL): Promise<string> {
  const r = await kubectl(args, bin)
  if (r.code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.code}:\n${r.stderr}\n${r.stdout}`)
  return r.stdout
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer()
    s.on('error', rej)
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port
      s.close(() => res(p))
    })
  })
}

const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000)
const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

const APP_CURRENT = [
  'I[2026-11-22|12:00:01.000] starting ABCI with CometBFT                 module=server',
  'I[2026-11-22|12:00:02.000] Starting Node service                       module=node impl=Node',
  'I[2026-11-22|12:00:09.000] finalized block                             module=state height=24311877 num_txs_res=3',
]
const APP_PREVIOUS = [
  'I[2026-11-22|11:58:00.000] starting ABCI with CometBFT                 module=server',
  'E[2026-11-22|11:59:30.000] can\'t get pubkey                            module=privval err="signer not ready"',
  'panic: failed to reach remote signer',
]
const NODE_UTILS = [
  'time="2026-11-22T12:00:00Z" level=info msg="starting node-utils" version=4.1.0',
  'time="2026-11-22T12:00:00Z" level=info msg="profiling enabled" address="127.0.0.1:6666"',
  'time="2026-11-22T12:00:10Z" level=info msg="node is synced" height=24311877',
]
const OPERATOR = [
  '{"level":"info","ts":"2026-11-22T12:00:00Z","msg":"Starting workers","controller":"chainnode","worker count":1}',
  '{"level":"info","ts":"2026-11-22T12:00:05Z","msg":"reconciling","controller":"chainnode","namespace":"mp-cosmoshub","name":"cosmoshub-0"}',
]

describe('manual diagnostic procedure with kubectl', () => {
  const kube = clusterKube(clusterDir)
  let chainNode: KubeObject & { metadata: { uid?: string } }
  let pod: KubeObject & { metadata: { uid?: string } }

  beforeAll(async () => {
    await kube.ensureNamespace(NS)
    await kube.ensureNamespace(OP_NS)

    chainNode = await kube.apply({
      apiVersion: 'cosmopilot.voluzi.com/v1',
      kind: 'ChainNode',
      metadata: { name: NODE, namespace: NS, labels: { 'app.kubernetes.io/name': 'cosmoshub' } },
      spec: { app: { image: 'ghcr.io/cosmos/gaia', version: 'v25.2.0', app: 'gaiad', sdkVersion: 'v0.53' } },
    })
    await kube.patchStatus(chainNode, {
      status: {
        phase: 'Running',
        ip: '10.244.0.17',
        appVersion: 'v25.2.0',
        chainID: 'cosmoshub-4',
        validator: false, // required by the CRD schema
        latestHeight: 24311877,
        dataUsage: '61%',
        nodeID: 'ade4d8bc8cbe014af6ebdf3cb7b1e9ad36f412c0',
        pvcSize: '100Gi',
      },
    })

    // The node Pod, on the kwok node but excluded from kwok's pod-ready stage by the label,
    // so that its status (a restarted `app`) is the one written here.
    pod = await kube.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: NODE,
        namespace: NS,
        labels: { 'app.kubernetes.io/name': 'cosmoshub', 'chain-id': 'cosmoshub-4', [MANUAL_STATUS_LABEL]: 'true' },
        ownerReferences: [
          {
            apiVersion: 'cosmopilot.voluzi.com/v1',
            kind: 'ChainNode',
            name: NODE,
            uid: chainNode.metadata.uid as string,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        nodeName: inject('kwokNode'),
        initContainers: [
          {
            name: 'node-utils',
            image: 'ghcr.io/voluzi/node-utils:4.1.0',
            restartPolicy: 'Always',
            ports: [{ name: 'node-utils', containerPort: 8000 }],
          },
        ],
        containers: [
          {
            name: 'app',
            image: 'ghcr.io/cosmos/gaia:v25.2.0',
            command: ['gaiad'],
            args: ['start', '--home', '/home/app'],
            ports: [
              { name: 'p2p', containerPort: 26656 },
              { name: 'rpc', containerPort: 26657 },
            ],
          },
        ],
      },
    })
    // kwok must leave it Pending (the manual-status variant of pod-ready).
    await sleep(500)
    expect((await kube.read<{ status: { phase: string } }>(pod)).status.phase).toBe('Pending')
    const started = iso(at(120))
    await kube.patchStatus(pod, {
      status: {
        phase: 'Running',
        hostIP: '127.0.0.1',
        podIP: '10.244.0.17',
        podIPs: [{ ip: '10.244.0.17' }],
        startTime: iso(at(900)),
        conditions: [
          { type: 'Initialized', status: 'True', lastTransitionTime: iso(at(890)) },
          { type: 'Ready', status: 'True', lastTransitionTime: started },
          { type: 'ContainersReady', status: 'True', lastTransitionTime: started },
          { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(at(900)) },
        ],
        initContainerStatuses: [
          {
            name: 'node-utils',
            image: 'ghcr.io/voluzi/node-utils:4.1.0',
            imageID: 'ghcr.io/voluzi/node-utils@sha256:' + 'a'.repeat(64),
            containerID: 'containerd://' + 'b'.repeat(64),
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: iso(at(890)) } },
          },
        ],
        containerStatuses: [
          {
            name: 'app',
            image: 'ghcr.io/cosmos/gaia:v25.2.0',
            imageID: 'ghcr.io/cosmos/gaia@sha256:' + 'c'.repeat(64),
            containerID: 'containerd://' + 'd'.repeat(64),
            ready: true,
            started: true,
            restartCount: 1,
            state: { running: { startedAt: started } },
            lastState: { terminated: { exitCode: 2, reason: 'Error', startedAt: iso(at(880)), finishedAt: iso(at(125)) } },
          },
        ],
      },
    })

    await setLogs(NS, NODE, {
      app: { current: APP_CURRENT, previous: APP_PREVIOUS },
      'node-utils': { current: NODE_UTILS },
    })

    // Events, deliberately created out of lastTimestamp order.
    await kube.createEvent(pod, {
      reason: 'BackOff',
      type: 'Warning',
      message: `Back-off restarting failed container app in pod ${NODE}_${NS}`,
      lastTimestamp: at(200),
      component: 'kubelet',
    })
    await kube.createEvent(chainNode, {
      reason: 'ConfigUpdated',
      message: 'configuration changed: restarting pod',
      lastTimestamp: at(600),
      component: 'chainnode-controller',
    })
    await kube.createEvent(pod, { reason: 'Started', message: 'Started container app', lastTimestamp: at(120), component: 'kubelet' })
    await kube.createEvent(chainNode, {
      reason: 'NodeSynced',
      message: 'node is synced at height 24311877',
      lastTimestamp: at(30),
      component: 'chainnode-controller',
    })

    // The operator: a pod on the kwok node (becomes Running by itself), its logs, its leader Lease.
    const op = await kube.apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: OP_POD,
        namespace: OP_NS,
        labels: { 'app.kubernetes.io/name': 'cosmopilot', 'control-plane': 'controller-manager', 'chainnode.test/suite': 'manual-procedure' },
      },
      spec: { nodeName: inject('kwokNode'), containers: [{ name: 'manager', image: 'ghcr.io/voluzi/cosmopilot:v3.0.0' }] },
    })
    await waitUntil('operator pod Running', 15_000, async () => (await kube.read<{ status: { phase: string } }>(op)).status.phase === 'Running')
    await setLogs(OP_NS, OP_POD, { manager: { current: OPERATOR } })
    await kube.apply({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'cosmopilot-leader-election', namespace: OP_NS },
      spec: {
        holderIdentity: `${OP_POD}_2b0f1c9e-0b4a-4a44-9d0e-1f2a3b4c5d6e`,
        leaseDurationSeconds: 15,
        acquireTime: `${iso(at(3600)).slice(0, -1)}.000000Z`,
        renewTime: `${iso(at(2)).slice(0, -1)}.000000Z`,
        leaseTransitions: 0,
      },
    })

    const fw = await forwardPort(NS, NODE, 6666, inject('pprofPort'))
    expect(fw.live).toBe(true)
  }, 120_000)

  it('step 1: kubectl get chainnode -o wide shows the printer columns', async () => {
    const out = await ok(['get', 'chainnode', NODE, '-n', NS, '-o', 'wide'])
    const [header, row] = out.trimEnd().split('\n')
    expect(header.split(/\s{2,}/)).toEqual(
      expect.arrayContaining(['NAME', 'STATUS', 'IP', 'VERSION', 'CHAINID', 'VALIDATOR', 'BONDSTATUS', 'JAILED', 'DATAUSAGE', 'LATESTHEIGHT', 'AGE']),
    )
    expect(row).toMatch(/^cosmoshub-0\s+Running\s+10\.244\.0\.17\s+v25\.2\.0\s+cosmoshub-4\s+false\s+/)
    expect(row).toContain('61%')
    expect(row).toContain('24311877')
  })

  it('step 1: kubectl describe chainnode shows status and its Events', async () => {
    const out = await ok(['describe', 'chainnode', NODE, '-n', NS])
    expect(out).toMatch(/^Name:\s+cosmoshub-0$/m)
    expect(out).toMatch(/^Kind:\s+ChainNode$/m)
    expect(out).toMatch(/Validator:\s+false/)
    expect(out).toMatch(/Chain ID:\s+cosmoshub-4/)
    expect(out).toMatch(/Events:/)
    expect(out).toMatch(/Normal\s+ConfigUpdated\s+.*chainnode-controller\s+configuration changed: restarting pod/)
    expect(out).toMatch(/Normal\s+NodeSynced\s+/)
  })

  it('step 1: kubectl get events --sort-by=.lastTimestamp lists the newest last', async () => {
    const out = await ok(['get', 'events', '-n', NS, '--sort-by=.lastTimestamp'])
    const reasons = out
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(/\s+/)[2])
    expect(reasons).toEqual(['ConfigUpdated', 'BackOff', 'Started', 'NodeSynced'])
    expect(out).toMatch(/Warning\s+BackOff\s+pod\/cosmoshub-0\s+Back-off restarting failed container app/)
    expect(out).toMatch(/chainnode\/cosmoshub-0/)
  })

  it('step 2: kubectl describe pod shows the sidecar, the restart and the last state', async () => {
    const out = await ok(['describe', 'pod', NODE, '-n', NS])
    expect(out).toMatch(/^Status:\s+Running$/m)
    expect(out).toMatch(/^Controlled By:\s+ChainNode\/cosmoshub-0$/m)
    expect(out).toMatch(/^Init Containers:\n\s+node-utils:/m)
    // describe does not print an init container's restartPolicy: read it back.
    expect(await ok(['get', 'pod', NODE, '-n', NS, '-o', 'jsonpath={.spec.initContainers[0].restartPolicy}'])).toBe('Always')
    expect(out).toMatch(/^Containers:\n\s+app:/m)
    expect(out).toMatch(/Last State:\s+Terminated\n\s+Reason:\s+Error\n\s+Exit Code:\s+2/)
    expect(out).toMatch(/Restart Count:\s+1/)
    expect(out).toMatch(/Warning\s+BackOff\s+.*kubelet\s+Back-off restarting failed container app/)
  })

  it('step 2: kubectl logs -c app / -c node-utils / --previous', async () => {
    expect(await ok(['logs', NODE, '-n', NS, '-c', 'app'])).toBe(APP_CURRENT.join('\n') + '\n')
    expect(await ok(['logs', NODE, '-n', NS, '-c', 'node-utils'])).toBe(NODE_UTILS.join('\n') + '\n')
    const prev = await ok(['logs', NODE, '-n', NS, '-c', 'app', '--previous'])
    expect(prev).toBe(APP_PREVIOUS.join('\n') + '\n')
    expect(prev).toContain("can't get pubkey")
    expect(await ok(['logs', NODE, '-n', NS, '-c', 'app', '--tail=1'])).toBe(APP_CURRENT[2] + '\n')
    const ts = await ok(['logs', NODE, '-n', NS, '-c', 'app', '--timestamps'])
    expect(ts.split('\n')[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z I\[2026-11-22\|12:00:01\.000\] starting ABCI/)
    // A container without a Logs rule: kwok's answer, relayed by the apiserver.
    const missing = await kubectl(['logs', OP_POD, '-n', OP_NS, '-c', 'nope'])
    expect(missing.code).not.toBe(0)
  })

  it('step 3: operator logs and leader Lease', async () => {
    expect(await ok(['logs', '-n', OP_NS, '-l', OP_LABEL, '-c', 'manager'])).toBe(OPERATOR.join('\n') + '\n')
    expect(await ok(['logs', '-n', OP_NS, `pod/${OP_POD}`])).toContain('"msg":"reconciling"')
    const lease = await ok(['get', 'lease', '-n', OP_NS, 'cosmopilot-leader-election', '-o', 'jsonpath={.spec.holderIdentity}'])
    expect(lease).toMatch(new RegExp(`^${OP_POD}_`))
  })

  describe('profiling through kubectl port-forward', () => {
    let pf: ChildProcess | undefined
    afterAll(async () => {
      if (pf && pf.exitCode === null) {
        pf.kill('SIGTERM')
        await new Promise((r) => pf!.once('exit', r))
      }
    })

    it('kubectl port-forward pod/POD LOCAL:6666 then GET /debug/pprof/heap gives a gzipped profile', async () => {
      const local = await freePort()
      pf = spawn(KUBECTL, ['port-forward', '-n', NS, `pod/${NODE}`, `${local}:6666`], {
        env: { ...process.env, KUBECONFIG: kubeconfigPath },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let out = ''
      pf.stdout!.on('data', (d: Buffer) => (out += d.toString()))
      pf.stderr!.on('data', (d: Buffer) => (out += d.toString()))
      await waitUntil('kubectl port-forward ready', 15_000, () => {
        if (pf!.exitCode !== null) throw new Error(`kubectl port-forward exited ${pf!.exitCode}: ${out}`)
        return out.includes(`Forwarding from 127.0.0.1:${local} -> 6666`)
      })
      const res = await rawRequest(`http://127.0.0.1:${local}/debug/pprof/heap`, { timeoutMs: 15_000 })
      expect(res.status).toBe(200)
      expect(res.body.length).toBeGreaterThan(200)
      expect([res.body[0], res.body[1]]).toEqual([0x1f, 0x8b])
      const proto = gunzipSync(res.body)
      // pprof's sample types of a Go heap profile, as strings in the protobuf string table.
      for (const s of ['alloc_objects', 'alloc_space', 'inuse_objects', 'inuse_space', 'main.retainBlock']) {
        expect(proto.includes(Buffer.from(s)), s).toBe(true)
      }
      const idx = await rawRequest(`http://127.0.0.1:${local}/debug/pprof/`, { timeoutMs: 15_000 })
      expect(idx.body.toString()).toContain('Types of profiles available')
    })
  })

  it('the system kubectl (v1.32) reads the same cluster', async () => {
    if (!existsSync(SYSTEM_KUBECTL)) return
    const out = await ok(['get', 'chainnode', NODE, '-n', NS, '-o', 'wide'], SYSTEM_KUBECTL)
    expect(out).toMatch(/^cosmoshub-0\s+Running\s+10\.244\.0\.17\s+v25\.2\.0\s+cosmoshub-4\s+false\s+/m)
    expect(await ok(['logs', NODE, '-n', NS, '-c', 'app', '--previous'], SYSTEM_KUBECTL)).toContain('panic: failed to reach remote signer')
  })

  it('the viewer user has no RBAC bindings', async () => {
    const r = await kubectl(['--context', 'viewer', 'get', 'chainnodes', '-n', NS])
    expect(r.code).not.toBe(0)
    expect(r.stderr).toMatch(/Forbidden.*User "viewer" cannot list resource "chainnodes" in API group "cosmopilot\.voluzi\.com"/)
  })

  it('the version-matched kubectl talks to a v1.36.3 apiserver', async () => {
    const v = JSON.parse(await ok(['version', '-o', 'json'])) as { clientVersion: { gitVersion: string }; serverVersion: { gitVersion: string } }
    expect(v.clientVersion.gitVersion).toBe('v1.36.3')
    expect(v.serverVersion.gitVersion).toBe('v1.36.3')
  })
})
