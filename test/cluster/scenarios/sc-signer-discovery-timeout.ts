/**
 * sc-signer-discovery-timeout: `val-0` is a remote-signer target (5.0.0 line). Its gate init
 * container `wait-cosmosigner-discovery` listens on 26659 for 25 s, no signer ever connects, it
 * exits 1 with the timeout message (termination message + logs): pod Init:Error. Why: the
 * signer pod `val-signer-0` is not ready, the discovery Service `val-signer-privval` has no
 * endpoints, and a NetworkPolicy on the node pod admits the signer pods on p2p/rpc only, not
 * TCP 26659.
 */
import type { KObject } from './lib/api.js'
import { cnEvent, kubeletEvent, scheduledEvent } from './lib/events.js'
import { logrus, reconcileFields, signerJson, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { chainHeight } from './lib/nodelogs.js'
import { podStatus, runningPodStatus } from './lib/podstatus.js'
import { defineScenario } from './lib/scenario.js'
import { discoveryGate, seedEndpoints, seedSigner, setSignerStatus } from './lib/signer.js'
import { DAY, MIN, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-signer-discovery-timeout'
const CHAIN = 'theta-testnet-001'
const SIGNER = 'val-signer'
const NU_IMAGE = 'ghcr.io/voluzi/node-utils:4.1.0'
const DNS = `${SIGNER}-privval.${NS}.svc`
const POD_AGE = 61
const POD_IP = '10.244.1.110'
const TIMEOUT_MSG =
  `remote signer discovery was not confirmed (signer connection: waiting for a remote signer connection on :26659 ` +
  `(connections: 0; last error: none): context deadline exceeded; pod-local DNS: ${DNS} has no published addresses ` +
  `(observed_addresses=[])): context deadline exceeded`

const NODE: NodeOptions = {
  name: 'val-0',
  chainID: CHAIN,
  app: GAIA,
  validator: true,
  spec: {
    genesis: { url: 'https://raw.githubusercontent.com/cosmos/testnets/master/public/genesis.json.gz', chainID: CHAIN },
    persistence: { size: '200Gi', storageClass: 'expandable' },
    validator: { info: { moniker: 'val-0' } },
    cosmosigner: {
      replicas: 1,
      image: 'ghcr.io/voluzi/cosmosigner:3.1.2',
      backend: {
        vault: {
          address: 'https://vault.vault.svc:8200',
          keyName: 'val-0-consensus',
          tokenSecret: { name: 'val-0-vault-token', key: 'token' },
        },
      },
    },
  },
}

function gateLogs(start: Date): LogLine[] {
  const at = (s: number) => new Date(start.getTime() + s * 1000)
  const out: LogLine[] = [logrus(at(0), 'info', 'waiting for remote signer', { port: 26659, dns: DNS, 'pod-ip': POD_IP, timeout: '25s' })]
  for (let t = 5; t <= 25; t += 5) {
    out.push(logrus(at(t), 'info', 'waiting for DNS address publication', { name: DNS, observed_addresses: '[]' }))
  }
  out.push(logrus(at(25.01), 'fatal', TIMEOUT_MSG))
  return out
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'val-0',
    symptomRule: 'signer-discovery-timeout',
    description:
      'val-0: wait-cosmosigner-discovery (wait-for-signer 26659 ... 25s) exits 1 with the discovery timeout (Init:Error); val-signer-privval has no endpoints, signer pod not ready, NetworkPolicy does not admit TCP 26659 from the signer.',
  },

  async seed(s) {
    const start = ago(s.now, POD_AGE)
    const gateStart = ago(s.now, POD_AGE - 3)
    const gateEnd = ago(s.now, POD_AGE - 28)
    const stack = await seedNode(s, NODE, {
      config: { privValidatorLaddr: 'tcp://0.0.0.0:26659' },
      pvc: { size: '200Gi', storageClass: 'expandable' },
      status: {
        phase: 'Error',
        validator: true,
        latestHeight: chainHeight(CHAIN, ago(s.now, 2 * DAY)),
        pvcSize: '200Gi',
        dataUsage: '41%',
        cosmosignerReplicas: 1,
      },
      pod: {
        node: 'unmanaged',
        labels: { 'cosmosigner-target': SIGNER, 'chain-node': 'val-0' },
        extraInit: [discoveryGate(NS, SIGNER, NU_IMAGE)],
        status: (pod) =>
          podStatus({
            phase: 'Failed',
            podUid: pod.metadata.uid ?? '',
            startTime: start,
            podIP: POD_IP,
            init: [
              {
                name: 'node-utils',
                image: NU_IMAGE,
                state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: ago(s.now, POD_AGE - 1), finishedAt: ago(s.now, POD_AGE - 29) } },
              },
              {
                name: 'wait-cosmosigner-discovery',
                image: NU_IMAGE,
                state: { terminated: { exitCode: 1, reason: 'Error', message: TIMEOUT_MSG, startedAt: gateStart, finishedAt: gateEnd } },
              },
            ],
            containers: [{ name: 'app', image: `${GAIA.image}:${GAIA.version}`, state: { waiting: { reason: 'PodInitializing' } }, pulled: true }],
            initialized: false,
            ready: false,
            transitionAt: gateEnd,
          }),
      },
    })
    const pod = stack.pod!
    const signer = await seedSigner(s, { name: SIGNER, image: 'ghcr.io/voluzi/cosmosigner:3.1.2', replicas: 1, owner: stack.cn }, CHAIN, (p) =>
      runningPodStatus(p, { now: s.now, ageSeconds: 3 * 3600, podIP: '10.244.1.111', notReady: ['cosmosigner'] }),
    )
    const signerPod = signer.pods[0]
    const vaultToken: KObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'val-0-vault-token', namespace: NS },
      type: 'Opaque',
      data: { token: Buffer.from('hvs.CAESIJ7dummytokenforchainnodetests').toString('base64') },
    }
    const signerLog: LogLine[] = []
    for (let t = 3 * 3600 - 5; t > 0; t -= t > 600 ? 900 : 30) {
      signerLog.push(
        signerJson(ago(s.now, t), 'warn', 'privval dial failed', {
          validator: `tcp://${DNS}:26659`,
          error: `dial tcp ${POD_IP}:26659: i/o timeout`,
          retry_in: '1s',
        }),
      )
    }
    await Promise.all([
      s.create(vaultToken),
      setSignerStatus(s, signer, 1, 0),
      seedEndpoints(s, signer.privvalService, { name: 'privvalidator', port: 26659 }, []),
      seedEndpoints(s, signer.raftService, { name: 'raft', port: 7070 }, [{ ip: '10.244.1.111', pod: signerPod, ready: false }]),
      s.create({
        apiVersion: 'networking.k8s.io/v1',
        kind: 'NetworkPolicy',
        metadata: { name: 'validator-lockdown', namespace: NS, labels: { 'app.kubernetes.io/managed-by': 'kustomize' } },
        spec: {
          podSelector: { matchLabels: { 'chain-node': 'val-0' } },
          policyTypes: ['Ingress'],
          ingress: [
            {
              from: [
                { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'cosmosigner' } } },
                { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
              ],
              ports: [
                { protocol: 'TCP', port: 26656 },
                { protocol: 'TCP', port: 26657 },
                { protocol: 'TCP', port: 26660 },
              ],
            },
          ],
        },
      }),
      scheduledEvent(s, pod, POD_AGE + 1),
      kubeletEvent(s, pod, 'Started', 'Started container node-utils', { container: 'node-utils', init: true, firstAgo: POD_AGE - 1 }),
      kubeletEvent(s, pod, 'Started', 'Started container wait-cosmosigner-discovery', {
        container: 'wait-cosmosigner-discovery',
        init: true,
        firstAgo: POD_AGE - 3,
      }),
      kubeletEvent(s, signerPod, 'Unhealthy', 'Readiness probe failed: HTTP probe failed with statuscode: 503', {
        container: 'cosmosigner',
        type: 'Warning',
        count: 2150,
        firstAgo: 3 * 3600 - 20,
        lastAgo: 4,
      }),
      cnEvent(s, stack.cn, 'NodeError', 'Pod failed to start: wait-cosmosigner-discovery: exit code 1', {
        type: 'Warning',
        count: 23,
        firstAgo: 27 * MIN,
        lastAgo: POD_AGE - 30,
      }),
      cnEvent(s, stack.cn, 'NodeRestarted', 'Node restarted', { firstAgo: 2 * DAY }),
      s.logs(pod.metadata.name, {
        'wait-cosmosigner-discovery': { current: gateLogs(gateStart) },
        'node-utils': {
          current: [
            logrus(ago(s.now, POD_AGE - 1), 'info', 'reloading upgrades config file'),
            logrus(ago(s.now, POD_AGE - 1), 'info', 'pprof listening on 127.0.0.1:6666'),
            logrus(ago(s.now, POD_AGE - 1), 'info', 'server started listening on 0.0.0.0:8000'),
          ],
        },
      }),
      s.logs(signerPod.metadata.name, { cosmosigner: { current: signerLog } }),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    for (let sec = 27 * MIN, i = 0; sec > POD_AGE - 31; sec -= 70, i++) {
      const f = reconcileFields('ChainNode', NS, 'val-0', uuidFrom(`val0/${i}`))
      lines.push(
        zapJson(ago(now, sec), 'error', undefined, 'cosmosigner discovery startup gate failed', {
          ...f,
          pod: 'val-0',
          container: 'wait-cosmosigner-discovery',
          exitCode: 1,
          message: TIMEOUT_MSG,
        }),
        zapJson(ago(now, sec - 1), 'info', undefined, 'recreating pod', { ...f, pod: 'val-0', reason: 'pod failed' }),
      )
    }
    return lines
  },
})
