/**
 * The seeded scenarios, checked with a real kubectl: each scenario's key objects exist and are in
 * the intended state (pod phases and container states, events, logs served, port-forwards).
 * The global setup seeds every scenario once; this file only reads (and re-seeds one scenario to
 * check idempotency, and refreshes liveness).
 */
import { scenarioCtx } from './scenario-setup.js'
import { execFile, spawn } from 'node:child_process'
import { X509Certificate } from 'node:crypto'
import { existsSync } from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { SCENARIOS, refreshLiveness, seedScenarios, type ScenarioCtx } from '../cluster/scenarios/index.js'

const run = promisify(execFile)

function kubectlBin(): string {
  const built = path.join(inject('binDir'), 'kubectl')
  return existsSync(built) ? built : '/usr/bin/kubectl'
}

const ctx = (): ScenarioCtx => scenarioCtx()

async function kubectl(args: string[]): Promise<string> {
  const { stdout } = await run(kubectlBin(), args, {
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath') },
    maxBuffer: 64 * 1024 * 1024,
  })
  return stdout
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type Obj = any

async function getJson(args: string[]): Promise<Obj> {
  return JSON.parse(await kubectl([...args, '-o', 'json']))
}

async function items(ns: string, kind: string): Promise<Obj[]> {
  return (await getJson(['get', kind, '-n', ns])).items
}

async function logs(ns: string, pod: string, container: string, previous = false): Promise<string> {
  return kubectl(['logs', '-n', ns, pod, '-c', container, ...(previous ? ['--previous'] : [])])
}

const events = (ns: string) => items(ns, 'events')
const byReason = (evs: Obj[], reason: string) => evs.filter((e) => e.reason === reason)
const cs = (pod: Obj, name: string) => [...(pod.status.initContainerStatuses ?? []), ...(pod.status.containerStatuses ?? [])].find((c: Obj) => c.name === name)
const ready = (pod: Obj) => pod.status.conditions?.find((c: Obj) => c.type === 'Ready')?.status === 'True'

/** `kubectl port-forward` to pod port 6666 and one HTTP GET through it. */
async function throughForward(ns: string, pod: string, urlPath: string): Promise<{ status: number; body: Buffer }> {
  const child = spawn(kubectlBin(), ['port-forward', '-n', ns, `pod/${pod}`, ':6666'], {
    env: { ...process.env, KUBECONFIG: inject('kubeconfigPath') },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let out = ''
      const timer = setTimeout(() => reject(new Error(`port-forward did not start: ${out}`)), 15_000)
      child.stdout.on('data', (d) => {
        out += d
        const m = /Forwarding from 127\.0\.0\.1:(\d+) -> 6666/.exec(out)
        if (m) {
          clearTimeout(timer)
          resolve(Number(m[1]))
        }
      })
      child.on('exit', () => reject(new Error(`port-forward exited: ${out}`)))
    })
    return await new Promise((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port, path: urlPath, timeout: 10_000 }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      })
      req.on('timeout', () => req.destroy(new Error('timeout')))
      req.on('error', reject)
    })
  } finally {
    child.kill()
  }
}

describe('seeded scenarios (checked with kubectl)', () => {
  beforeAll(async () => {
    await refreshLiveness(ctx())
  })

  it('lists 23 scenarios, one namespace each, every ChainNode present', async () => {
    expect(SCENARIOS).toHaveLength(23)
    expect(new Set(SCENARIOS.map((s) => s.namespace)).size).toBe(23)
    const nodes = (await getJson(['get', 'chainnodes', '-A'])).items as Obj[]
    for (const s of SCENARIOS) {
      expect(s.namespace).toBe(s.name)
      expect(
        nodes.some((n) => n.metadata.namespace === s.namespace && n.metadata.name === s.node),
        `${s.namespace}/${s.node}`,
      ).toBe(true)
      expect(s.symptomRule === null).toBe(s.name.startsWith('sc-healthy'))
    }
  })

  it('shared: operator release, leader Lease held by the running manager, webhook config with a valid CA', async () => {
    const ns = 'cosmopilot-system'
    const dep = await getJson(['get', 'deployment', 'cosmopilot', '-n', ns])
    // The apiserver drops empty values: WORKER_NAME="" reads back as a name without value.
    const env = Object.fromEntries(dep.spec.template.spec.containers[0].env.map((e: Obj) => [e.name, e.value ?? '']))
    expect(dep.spec.template.spec.containers[0].name).toBe('manager')
    expect(env).toMatchObject({ WORKER_NAME: '', ENABLE_LEADER_ELECTION: 'true' })
    expect(env.NODE_UTILS_IMAGE).toMatch(/node-utils:4\./)
    const pods = await items(ns, 'pods')
    expect(pods).toHaveLength(1)
    const pod = pods[0]
    expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'ReplicaSet' })
    expect(ready(pod)).toBe(true)
    const rs = await getJson(['get', 'replicaset', pod.metadata.ownerReferences[0].name, '-n', ns])
    expect(rs.metadata.ownerReferences[0]).toMatchObject({ kind: 'Deployment', name: 'cosmopilot', uid: dep.metadata.uid })
    const lease = await getJson(['get', 'lease', 'cosmopilot.cosmopilot.voluzi.com', '-n', ns])
    expect(lease.spec.holderIdentity.startsWith(`${pod.metadata.name}_`)).toBe(true)
    expect(Date.now() - Date.parse(lease.spec.renewTime)).toBeLessThan(60_000)
    const log = await logs(ns, pod.metadata.name, 'manager')
    expect(log).toMatch(/successfully acquired lease cosmopilot-system\/cosmopilot\.cosmopilot\.voluzi\.com/)
    expect(log).toMatch(/"msg":"config changed"/)
    const vwc = await getJson(['get', 'validatingwebhookconfiguration', 'cosmopilot-validating-webhook-cfg'])
    expect(vwc.metadata.annotations['cert-manager.io/inject-ca-from']).toBe('cosmopilot-system/cosmopilot-cert')
    expect(vwc.webhooks.map((w: Obj) => w.name)).toEqual(['vchainnode.kb.io', 'vchainnodeset.kb.io'])
    expect(vwc.webhooks[0].objectSelector.matchExpressions[0]).toMatchObject({ key: 'worker-name', operator: 'DoesNotExist' })
    expect(vwc.webhooks[0].clientConfig.service).toMatchObject({ name: 'cosmopilot-webhook', namespace: ns })
    expect(vwc.webhooks[0].failurePolicy).toBe('Ignore')
    const cert = new X509Certificate(Buffer.from(vwc.webhooks[0].clientConfig.caBundle, 'base64'))
    expect(Date.parse(cert.validFrom)).toBeLessThan(Date.now())
    expect(Date.parse(cert.validTo)).toBeGreaterThan(Date.now())
    const sc = (await getJson(['get', 'storageclass'])).items as Obj[]
    expect(sc.find((c) => c.metadata.name === 'expandable')?.allowVolumeExpansion).toBe(true)
    expect(sc.find((c) => c.metadata.name === 'fixed')?.allowVolumeExpansion).toBeUndefined()
  })

  it('sc-healthy: Running/Ready node, advancing heights, NoTrustHeight noise, ChainNodeSet hub, pprof on 6666', async () => {
    const ns = 'sc-healthy'
    const [cn, pod, set, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'fullnode-0', '-n', ns]),
      getJson(['get', 'pod', 'fullnode-0', '-n', ns]),
      getJson(['get', 'chainnodeset', 'hub', '-n', ns]),
      events(ns),
    ])
    expect(cn.status).toMatchObject({ phase: 'Running', chainID: 'cosmoshub-4', validator: false })
    expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'ChainNode', name: 'fullnode-0', uid: cn.metadata.uid, controller: true })
    expect(pod.metadata.labels['chain-node']).toBeUndefined()
    expect(pod.metadata.annotations['cosmopilot.voluzi.com/config-hash']).toMatch(/^\d+$/)
    expect(pod.spec.containers.map((c: Obj) => c.name)).toEqual(['app'])
    expect(pod.spec.initContainers.find((c: Obj) => c.name === 'node-utils')).toMatchObject({
      restartPolicy: 'Always',
      image: 'ghcr.io/voluzi/node-utils:4.1.0',
    })
    expect(pod.status.phase).toBe('Running')
    expect(ready(pod)).toBe(true)
    const heights = [...(await logs(ns, 'fullnode-0', 'app')).matchAll(/"_msg":"committed state".*?"height":(\d+)/g)].map((m) => Number(m[1]))
    expect(heights.length).toBeGreaterThan(10)
    expect(heights).toEqual([...heights].sort((a, b) => a - b))
    expect(heights.at(-1)! - heights[0]).toBeGreaterThan(10)
    expect(Math.abs(heights.at(-1)! - cn.status.latestHeight)).toBeLessThan(20)
    expect(await logs(ns, 'fullnode-0', 'node-utils')).toMatch(/level=info msg="got syncing status" syncing=false/)
    const noise = byReason(evs, 'NoTrustHeight')
    expect(noise).toHaveLength(1)
    expect(noise[0]).toMatchObject({ type: 'Warning', source: { component: 'chainnode-controller' } })
    expect(noise[0].count).toBeGreaterThan(1000)
    expect(byReason(evs, 'NodeRunning').length).toBeGreaterThanOrEqual(3)
    expect(set.status).toMatchObject({ phase: 'Running', instances: 2, readyInstances: 2 })
    const children = (await items(ns, 'chainnodes')).filter((n: Obj) => n.metadata.labels?.nodeset === 'hub')
    expect(children.map((n: Obj) => n.metadata.name).sort()).toEqual(['hub-fullnodes-0', 'hub-fullnodes-1'])
    for (const c of children) expect(c.metadata.ownerReferences[0]).toMatchObject({ kind: 'ChainNodeSet', uid: set.metadata.uid })
    const heap = await throughForward(ns, 'fullnode-0', '/debug/pprof/heap')
    expect(heap.status).toBe(200)
    expect([...heap.body.subarray(0, 2)]).toEqual([0x1f, 0x8b])
  })

  it('sc-healthy-legacy: 3.0.0 line pod (container gaiad, node-utils 2.10.0 with TMKMS_PROXY)', async () => {
    const pod = await getJson(['get', 'pod', 'gaia-0', '-n', 'sc-healthy-legacy'])
    expect(pod.spec.containers.map((c: Obj) => c.name)).toEqual(['gaiad'])
    const nu = pod.spec.initContainers.find((c: Obj) => c.name === 'node-utils')
    expect(nu.image).toBe('ghcr.io/voluzi/node-utils:2.10.0')
    expect(nu.env.map((e: Obj) => e.name)).toContain('TMKMS_PROXY')
    expect(ready(pod)).toBe(true)
    expect(await logs('sc-healthy-legacy', 'gaia-0', 'gaiad')).toMatch(/finalizing commit of block/)
  })

  it('sc-config-change-restart: cfg-0 restarted for a config change, cfg-1 restart deferred', async () => {
    const ns = 'sc-config-change-restart'
    const [pods, cms, nodes, evs] = await Promise.all([items(ns, 'pods'), items(ns, 'configmaps'), items(ns, 'chainnodes'), events(ns)])
    const hash = (o: Obj) => o.metadata.annotations['cosmopilot.voluzi.com/config-hash']
    const pod = (n: string) => pods.find((p) => p.metadata.name === n)
    const cm = (n: string) => cms.find((c) => c.metadata.name === n)
    expect(hash(pod('cfg-0'))).toBe(hash(cm('cfg-0')))
    expect(hash(pod('cfg-1'))).not.toBe(hash(cm('cfg-1')))
    const gen = (n: string) => nodes.find((c) => c.metadata.name === n).metadata.generation
    expect(pod('cfg-0').metadata.annotations['cosmopilot.voluzi.com/chainnode-generation']).toBe(String(gen('cfg-0')))
    expect(Number(pod('cfg-1').metadata.annotations['cosmopilot.voluzi.com/chainnode-generation'])).toBeLessThan(gen('cfg-1'))
    // Seeded a few minutes old; the suite's own run time adds to that (21 minutes on a loaded machine): recent is
    // what counts, well inside the 6 hours within which a restart is news.
    expect(Date.now() - Date.parse(pod('cfg-0').status.startTime)).toBeLessThan(60 * 60_000)
    expect(Date.now() - Date.parse(pod('cfg-1').status.startTime)).toBeGreaterThan(86_400_000)
    const restarted = byReason(evs, 'NodeRestarted')
    expect(restarted.map((e) => [e.involvedObject.name, e.message])).toEqual([['cfg-0', 'Node restarted']])
    const killing = byReason(evs, 'Killing')
    expect(killing.length).toBe(2)
    expect(killing[0].involvedObject.uid).not.toBe(pod('cfg-0').metadata.uid)
    const manager = (await items('cosmopilot-system', 'pods'))[0].metadata.name
    const log = await logs('cosmopilot-system', manager, 'manager')
    expect(log).toMatch(/"msg":"recreating pod".*"name":"cfg-0"/)
    expect(log).toMatch(/"msg":"delaying pod recreation due to disruption limits".*"name":"cfg-1"/)
  })

  it('sc-image-pull: Pending pod, app in ImagePullBackOff, kubelet Failed/BackOff events', async () => {
    const ns = 'sc-image-pull'
    const [pod, evs] = await Promise.all([getJson(['get', 'pod', 'pull-0', '-n', ns]), events(ns)])
    expect(pod.status.phase).toBe('Pending')
    expect(pod.spec.nodeName).toBe(inject('unmanagedNode'))
    expect(pod.spec.imagePullSecrets).toBeUndefined()
    expect(cs(pod, 'app').state.waiting).toEqual({
      reason: 'ImagePullBackOff',
      message: 'Back-off pulling image "ghcr.io/cosmos/gaia:v99.0.0"',
    })
    const backoff = byReason(evs, 'BackOff')
    expect(backoff).toHaveLength(1)
    expect(backoff[0]).toMatchObject({ count: 12, source: { component: 'kubelet' } })
    expect(Date.parse(backoff[0].lastTimestamp) - Date.parse(backoff[0].firstTimestamp)).toBeGreaterThan(10 * 60_000)
    const failed = byReason(evs, 'Failed').map((e) => e.message)
    expect(failed.some((m) => /Failed to pull image .*: not found$/.test(m))).toBe(true)
    expect(failed).toContain('Error: ErrImagePull')
    const table = await kubectl(['get', 'pod', 'pull-0', '-n', ns])
    expect(table).toMatch(/ImagePullBackOff/)
  })

  it('sc-not-syncing: Syncing with a frozen height, no peers, readiness 417 as an events.k8s.io series', async () => {
    const ns = 'sc-not-syncing'
    const [cn, pod, cm, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'stuck-0', '-n', ns]),
      getJson(['get', 'pod', 'stuck-0', '-n', ns]),
      getJson(['get', 'configmap', 'stuck-0', '-n', ns]),
      events(ns),
    ])
    expect(cn.status.phase).toBe('Syncing')
    expect(cn.spec.config.blockThreshold).toBe('60s')
    expect(cm.data['config.toml']).toMatch(/^persistent_peers = ""$/m)
    expect(cm.data['config.toml']).toMatch(/^seeds = ""$/m)
    expect(ready(pod)).toBe(false)
    expect(cs(pod, 'app').ready).toBe(false)
    const nu = pod.spec.initContainers.find((c: Obj) => c.name === 'node-utils')
    expect(nu.env.find((e: Obj) => e.name === 'BLOCK_THRESHOLD').value).toBe('60s')
    const unhealthy = byReason(evs, 'Unhealthy')
    expect(unhealthy).toHaveLength(1)
    expect(unhealthy[0].message).toBe('Readiness probe failed: HTTP probe failed with statuscode: 417')
    expect(unhealthy[0].lastTimestamp).toBeFalsy()
    expect(unhealthy[0].eventTime).toBeTruthy()
    expect(unhealthy[0].series.count).toBeGreaterThan(100)
    const app = await logs(ns, 'stuck-0', 'app')
    expect(app).toMatch(/"_msg":"Ensure peers".*"numOutPeers":0/)
    expect(app).toMatch(/dialing failed/)
    expect(app).toMatch(/No addresses to dial/)
    const nuLog = await logs(ns, 'stuck-0', 'node-utils')
    expect(nuLog).toMatch(/msg="got syncing status" syncing=true/)
    const heights = new Set([...nuLog.matchAll(/retrieved latest height" height=(\d+)/g)].map((m) => Number(m[1])))
    expect([...heights]).toEqual([cn.status.latestHeight])
  })

  it('sc-snapshot-verify: snapshots with integrity annotations, a failed OOMKilled check pod, repeated events', async () => {
    const ns = 'sc-snapshot-verify'
    const [cn, snaps, pods, jobs, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'snap-0', '-n', ns]),
      items(ns, 'volumesnapshots'),
      items(ns, 'pods'),
      items(ns, 'jobs'),
      events(ns),
    ])
    expect(cn.spec.persistence.snapshots).toMatchObject({ frequency: '6h', verify: true })
    expect(snaps.length).toBe(3)
    for (const vs of snaps) {
      expect(vs.metadata.name).toMatch(/^snap-0-\d{14}$/)
      expect(vs.metadata.labels['chain-node']).toBe('snap-0')
      expect(vs.metadata.annotations['cosmopilot.voluzi.com/snapshot-ready']).toBe('true')
      expect(vs.metadata.annotations['cosmopilot.voluzi.com/data-height']).toMatch(/^\d+$/)
    }
    const integrity = snaps.map((vs) => vs.metadata.annotations['cosmopilot.voluzi.com/snapshot-integrity-status']).sort()
    expect(integrity).toEqual(['checking', 'corrupted', 'ok'])
    const check = pods.find((p) => /^snap-0-\d{14}-ichk-[a-z0-9]{5}$/.test(p.metadata.name))
    expect(check.status.phase).toBe('Failed')
    expect(cs(check, 'gaiad').state.terminated.reason).toBe('OOMKilled')
    expect(cs(check, 'start-checker').state.terminated.exitCode).toBe(1)
    expect(check.spec.initContainers.find((c: Obj) => c.name === 'gaiad').resources.limits.memory).toBe('512Mi')
    expect(jobs[0].metadata.ownerReferences[0].kind).toBe('VolumeSnapshot')
    expect(byReason(evs, 'IntegrityCheckStart').length).toBeGreaterThanOrEqual(5)
    expect(byReason(evs, 'SnapshotStarted').length).toBeGreaterThanOrEqual(5)
    const deleted = byReason(evs, 'SnapshotDeleted')
    expect(deleted.length).toBeGreaterThanOrEqual(3)
    for (const e of deleted) {
      const name = /snapshot (snap-0-\d{14})/.exec(e.message)![1]
      expect(snaps.some((vs) => vs.metadata.name === name)).toBe(false)
    }
    expect(await logs(ns, check.metadata.name, 'start-checker')).toMatch(/node did not open gRPC port in time/)
  })

  it('sc-restore-not-starting: Pending PVC from a missing VolumeSnapshot on a class without support, no Pod', async () => {
    const ns = 'sc-restore-not-starting'
    const [cn, pvc, pods, snaps, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'restore-0', '-n', ns]),
      getJson(['get', 'pvc', 'restore-0', '-n', ns]),
      items(ns, 'pods'),
      items(ns, 'volumesnapshots'),
      events(ns),
    ])
    expect(cn.spec.persistence.restoreFromSnapshot.name).toBe('missing-snapshot')
    expect(cn.status.phase ?? '').toBe('')
    expect(pods).toEqual([])
    expect(snaps).toEqual([])
    expect(pvc.status.phase).toBe('Pending')
    expect(pvc.spec.storageClassName).toBe('fixed')
    expect(pvc.spec.dataSource).toEqual({ apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'missing-snapshot' })
    const failed = byReason(evs, 'ProvisioningFailed')
    expect(failed[0].involvedObject).toMatchObject({ kind: 'PersistentVolumeClaim', name: 'restore-0' })
    expect(failed[0].message).toMatch(/error getting handle for DataSource Type VolumeSnapshot by Name missing-snapshot/)
  })

  it('sc-pvc-not-growing: request 150Gi, capacity 100Gi on a class without allowVolumeExpansion', async () => {
    const ns = 'sc-pvc-not-growing'
    const [cn, pvc, evs] = await Promise.all([getJson(['get', 'chainnode', 'grow-0', '-n', ns]), getJson(['get', 'pvc', 'grow-0', '-n', ns]), events(ns)])
    expect(pvc.spec.resources.requests.storage).toBe('150Gi')
    expect(pvc.status.capacity.storage).toBe('100Gi')
    expect(pvc.spec.storageClassName).toBe('fixed')
    expect(pvc.metadata.ownerReferences).toBeUndefined()
    expect(pvc.metadata.annotations['cosmopilot.voluzi.com/root-owner-uid']).toBe(cn.metadata.uid)
    expect(cn.status).toMatchObject({ pvcSize: '150Gi', dataUsage: '92%' })
    expect(byReason(evs, 'PvcResized')[0].message).toBe('Data volume was resized to 150Gi')
  })

  it('sc-profiling-unavailable: node-utils warns that 6666 is taken; 6666 does not serve pprof', async () => {
    const ns = 'sc-profiling-unavailable'
    expect(await logs(ns, 'prof-0', 'node-utils')).toMatch(/level=warning msg="profiling disabled: listen tcp 127\.0\.0\.1:6666: bind: address already in use"/)
    const res = await throughForward(ns, 'prof-0', '/debug/pprof/heap')
    expect([...res.body.subarray(0, 2)]).not.toEqual([0x1f, 0x8b])
  })

  it('sc-signer-discovery-timeout: gate timed out (Init:Error), no discovery endpoints, policy without 26659', async () => {
    const ns = 'sc-signer-discovery-timeout'
    const [pod, slices, sts, policies] = await Promise.all([
      getJson(['get', 'pod', 'val-0', '-n', ns]),
      items(ns, 'endpointslices'),
      getJson(['get', 'statefulset', 'val-signer', '-n', ns]),
      items(ns, 'networkpolicies'),
    ])
    expect(pod.metadata.labels['cosmosigner-target']).toBe('val-signer')
    const gateSpec = pod.spec.initContainers.find((c: Obj) => c.name === 'wait-cosmosigner-discovery')
    expect(gateSpec.args).toEqual(['wait-for-signer', '26659', `val-signer-privval.${ns}.svc`, '$(POD_IP)', '25s'])
    const gate = cs(pod, 'wait-cosmosigner-discovery').state.terminated
    expect(gate.exitCode).toBe(1)
    expect(gate.message).toMatch(/^remote signer discovery was not confirmed/)
    expect(await kubectl(['get', 'pod', 'val-0', '-n', ns])).toMatch(/Init:Error/)
    expect(await logs(ns, 'val-0', 'wait-cosmosigner-discovery')).toMatch(/remote signer discovery was not confirmed/)
    const privval = slices.find((s) => s.metadata.labels['kubernetes.io/service-name'] === 'val-signer-privval')
    expect(privval.endpoints ?? []).toEqual([])
    expect(sts.status.readyReplicas ?? 0).toBe(0)
    const nodePolicies = policies.filter((p) => p.spec.podSelector.matchLabels?.['chain-node'] === 'val-0')
    expect(nodePolicies.length).toBe(1)
    const ports = nodePolicies[0].spec.ingress.flatMap((r: Obj) => (r.ports ?? []).map((p: Obj) => p.port))
    expect(ports).not.toContain(26659)
  })

  it("sc-signer-pubkey: gate passed, app exits with can't get pubkey, signer 3.0.2 with discovery endpoints", async () => {
    const ns = 'sc-signer-pubkey'
    const [pod, sts, slices, evs] = await Promise.all([
      getJson(['get', 'pod', 'val-1', '-n', ns]),
      getJson(['get', 'statefulset', 'val-1-signer', '-n', ns]),
      items(ns, 'endpointslices'),
      events(ns),
    ])
    expect(cs(pod, 'wait-cosmosigner-discovery').state.terminated.exitCode).toBe(0)
    expect(cs(pod, 'app').state.terminated.exitCode).toBe(1)
    expect(await logs(ns, 'val-1', 'app', true)).toMatch(/can't get pubkey: endpoint connection timed out/)
    expect(await logs(ns, 'val-1', 'wait-cosmosigner-discovery')).toMatch(/remote signer discovery confirmed/)
    const c = sts.spec.template.spec.containers[0]
    expect(c).toMatchObject({ name: 'cosmosigner', image: 'ghcr.io/voluzi/cosmosigner:3.0.2' })
    expect(c.ports.find((p: Obj) => p.name === 'http').containerPort).toBe(8080)
    const signerPods = (await items(ns, 'pods')).filter((p) => p.metadata.name.startsWith('val-1-signer-'))
    expect(signerPods.length).toBe(2)
    const privval = slices.find((s) => s.metadata.labels['kubernetes.io/service-name'] === 'val-1-signer-privval')
    expect(privval.endpoints.length).toBeGreaterThan(0)
    expect(byReason(evs, 'NodeRestarted')[0].count).toBeGreaterThan(1)
    expect(byReason(evs, 'NodeError')[0].type).toBe('Warning')
  })

  it('sc-legacy-signing: tmkms + vault-token-renewer containers, refusal event and log, renewal denied', async () => {
    const ns = 'sc-legacy-signing'
    const [cn, pod, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'tmkms-0', '-n', ns]),
      getJson(['get', 'pod', 'tmkms-0', '-n', ns]),
      events(ns),
      getJson(['get', 'configmap', 'tmkms-0-tmkms', '-n', ns]),
    ])
    expect(cn.spec.validator.tmKMS.provider.hashicorp).toMatchObject({ autoRenewToken: true, uploadGenerated: true })
    expect(pod.spec.containers.map((c: Obj) => c.name)).toEqual(['app', 'tmkms', 'vault-token-renewer'])
    const refusal = evs.find((e) => e.type === 'Warning' && e.involvedObject.kind === 'ChainNode')
    expect(refusal.message).toMatch(/legacy tmKMS signing path is no longer supported/)
    expect(refusal.source.component).toBe('chainnode-controller')
    expect(await logs(ns, 'tmkms-0', 'vault-token-renewer')).toMatch(/failed to renew token: permission denied/)
    const manager = (await items('cosmopilot-system', 'pods'))[0].metadata.name
    expect(await logs('cosmopilot-system', manager, 'manager')).toMatch(/"msg":"Reconciler error".*"name":"tmkms-0".*legacy tmKMS/)
  })

  it('sc-leader-election: Lease held by a gone pod, 10 min stale; replicas fail to acquire it', async () => {
    const ns = 'sc-leader-election'
    const [dep, pods, lease, cn] = await Promise.all([
      getJson(['get', 'deployment', 'cosmopilot-le', '-n', ns]),
      items(ns, 'pods'),
      getJson(['get', 'lease', 'le.cosmopilot.cosmopilot.voluzi.com', '-n', ns]),
      getJson(['get', 'chainnode', 'le-0', '-n', ns]),
    ])
    expect(dep.spec.replicas).toBe(2)
    expect(dep.spec.template.spec.containers[0].env.find((e: Obj) => e.name === 'WORKER_NAME').value).toBe('le')
    const replicas = pods.filter((p) => p.metadata.name.startsWith('cosmopilot-le-'))
    expect(replicas.length).toBe(2)
    for (const p of replicas) expect(p.status.phase).toBe('Running')
    const holderPod = lease.spec.holderIdentity.split('_')[0]
    expect(pods.some((p) => p.metadata.name === holderPod)).toBe(false)
    expect(Date.now() - Date.parse(lease.spec.renewTime)).toBeGreaterThan(9 * 60_000)
    for (const p of replicas) {
      const log = await logs(ns, p.metadata.name, 'manager')
      expect(log).toMatch(/attempting to acquire leader lease sc-leader-election\/le\.cosmopilot\.cosmopilot\.voluzi\.com\.\.\./)
      expect(log).toMatch(/failed to acquire lease/)
    }
    expect(cn.metadata.labels['worker-name']).toBe('le')
    const app = await logs(ns, 'le-0', 'app')
    const last = Number([...app.matchAll(/"height":(\d+)/g)].at(-1)![1])
    expect(last - cn.status.latestHeight).toBeGreaterThan(50)
  })

  it('sc-webhook-certificates: empty caBundle, no cert-manager objects, manager crash-loops on tls.crt', async () => {
    const ns = 'sc-webhook-certificates'
    const [vwc, pods, cn, certs, issuers] = await Promise.all([
      getJson(['get', 'validatingwebhookconfiguration', 'cosmopilot-wh-validating-webhook-cfg']),
      items(ns, 'pods'),
      getJson(['get', 'chainnode', 'wh-0', '-n', ns]),
      items(ns, 'certificates.cert-manager.io'),
      items(ns, 'issuers.cert-manager.io'),
    ])
    expect(vwc.webhooks[0].objectSelector).toEqual({ matchLabels: { 'worker-name': 'wh' } })
    expect(vwc.webhooks.every((w: Obj) => !w.clientConfig.caBundle)).toBe(true)
    expect(certs).toEqual([])
    expect(issuers).toEqual([])
    expect(cn.metadata.labels['worker-name']).toBe('wh')
    expect(cn.status).toBeUndefined()
    expect(pods.some((p) => p.metadata.name === 'wh-0')).toBe(false)
    const manager = pods.find((p) => p.metadata.name.startsWith('cosmopilot-wh-'))
    expect(cs(manager, 'manager').state.waiting.reason).toBe('CrashLoopBackOff')
    for (const previous of [false, true]) {
      const log = await logs(ns, manager.metadata.name, 'manager', previous)
      expect(log).toMatch(/open \/tmp\/k8s-webhook-server\/serving-certs\/tls\.crt: no such file or directory/)
      expect(log).toMatch(/"msg":"problem running manager"/)
    }
  })

  it('sc-reconcile-failing: quota-0 in InitializingData, ResourceQuota used up, only Reconciler error lines in the manager log', async () => {
    const ns = 'sc-reconcile-failing'
    const [cn, pods, evs, quota, pvc] = await Promise.all([
      getJson(['get', 'chainnode', 'quota-0', '-n', ns]),
      items(ns, 'pods'),
      events(ns),
      getJson(['get', 'resourcequota', 'compute-resources', '-n', ns]),
      getJson(['get', 'pvc', 'quota-0', '-n', ns]),
    ])
    expect(cn.status.phase).toBe('InitializingData')
    expect(pods).toEqual([])
    expect(evs.filter((e: Obj) => e.type === 'Warning')).toEqual([])
    expect(quota.status.used['requests.cpu']).toBe('6')
    expect(pvc.metadata.annotations['cosmopilot.voluzi.com/data-initialized']).toBe('false')
    const manager = (await items('cosmopilot-system', 'pods'))[0].metadata.name
    const lines = (await logs('cosmopilot-system', manager, 'manager')).split('\n').filter((l) => l.includes('"quota-0"'))
    const errors = lines.filter((l) => l.includes('"msg":"Reconciler error"'))
    expect(errors.length).toBeGreaterThan(10)
    for (const line of errors) {
      const parsed = JSON.parse(line)
      expect(parsed).toMatchObject({ level: 'error', ChainNode: { name: 'quota-0', namespace: ns }, controllerKind: 'ChainNode' })
      expect(parsed.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/) // controller-runtime's RFC 3339 timestamp
      expect(parsed.error).toMatch(/^failed to create init pod: pods "quota-0-init-data" is forbidden: exceeded quota: compute-resources/)
      expect(parsed.stacktrace).toMatch(/controller-runtime/)
    }
    expect(lines.some((l) => /"msg":"updating \.status\.phase".*"phase":"InitializingData"/.test(l))).toBe(true)
  })

  it('sc-phase-stuck: init-0-init-data shows its download running for hours; nothing about init-0 in the manager log', async () => {
    const ns = 'sc-phase-stuck'
    const [cn, pod, evs] = await Promise.all([
      getJson(['get', 'chainnode', 'init-0', '-n', ns]),
      getJson(['get', 'pod', 'init-0-init-data', '-n', ns]),
      events(ns),
    ])
    expect(cn.status.phase).toBe('InitializingData')
    expect(pod.status.phase).toBe('Pending')
    expect(pod.spec.activeDeadlineSeconds).toBe(7200)
    expect(cs(pod, 'init-command-0').state.running).toBeDefined()
    expect(Date.now() - Date.parse(pod.status.startTime)).toBeGreaterThan(2 * 3600_000)
    expect(byReason(evs, 'DataInitStarted')).toHaveLength(1)
    expect(evs.filter((e: Obj) => e.type === 'Warning')).toEqual([])
    const manager = (await items('cosmopilot-system', 'pods'))[0].metadata.name
    expect(await logs('cosmopilot-system', manager, 'manager')).not.toMatch(/"init-0"/)
  })

  it('sc-healthy-no-leader-election: one manager without ENABLE_LEADER_ELECTION, no Lease, RFC 3339 log', async () => {
    const ns = 'sc-healthy-no-leader-election'
    const [dep, leases, pods] = await Promise.all([getJson(['get', 'deployment', 'cosmopilot-solo', '-n', ns]), items(ns, 'leases'), items(ns, 'pods')])
    const env = Object.fromEntries(dep.spec.template.spec.containers[0].env.map((e: Obj) => [e.name, e.value ?? '']))
    expect(env.WORKER_NAME).toBe('solo')
    expect(env.ENABLE_LEADER_ELECTION).toBeUndefined()
    expect(dep.spec.replicas).toBe(1)
    expect(leases).toEqual([])
    const manager = pods.find((p: Obj) => p.metadata.name.startsWith('cosmopilot-solo-'))
    expect(ready(manager)).toBe(true)
    const log = await logs(ns, manager.metadata.name, 'manager')
    expect(log).not.toMatch(/leader lease|leaderelection\.go/)
    for (const line of log.trim().split('\n')) expect(JSON.parse(line).ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
    expect(log).toMatch(/"msg":"Reconciler error".*"name":"solo-0".*the object has been modified/)
    expect(log.trim().split('\n').at(-1)).toMatch(/"msg":"finishing reconcile"/)
  })

  it('refreshLiveness keeps healthy heights and the leader Lease current; re-seeding is idempotent and fast', async () => {
    const before = await getJson(['get', 'chainnode', 'fullnode-0', '-n', 'sc-healthy'])
    await new Promise((r) => setTimeout(r, 6500))
    await refreshLiveness(ctx())
    const after = await getJson(['get', 'chainnode', 'fullnode-0', '-n', 'sc-healthy'])
    expect(after.status.latestHeight).toBeGreaterThan(before.status.latestHeight)
    const lease = await getJson(['get', 'lease', 'cosmopilot.cosmopilot.voluzi.com', '-n', 'cosmopilot-system'])
    expect(Date.now() - Date.parse(lease.spec.renewTime)).toBeLessThan(10_000)

    const uid = (await getJson(['get', 'pod', 'pull-0', '-n', 'sc-image-pull'])).metadata.uid
    const t = Date.now()
    await seedScenarios(ctx(), ['sc-image-pull'])
    expect(Date.now() - t).toBeLessThan(20_000)
    const pod = await getJson(['get', 'pod', 'pull-0', '-n', 'sc-image-pull'])
    expect(pod.metadata.uid).toBe(uid)
    expect(cs(pod, 'app').state.waiting.reason).toBe('ImagePullBackOff')
  })
})
