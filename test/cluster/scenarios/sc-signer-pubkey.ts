/**
 * sc-signer-pubkey: `val-1` passes its discovery gate (the signer connected), then the app
 * exits with `can't get pubkey: endpoint connection timed out`, again and again (NodeRestarted /
 * NodeError). The signer StatefulSet `val-1-signer` runs cosmosigner 3.0.2, below the 3.1.0 the
 * 5.0.0 line requires (no bounded redial); discovery Service `val-1-signer-privval` has endpoints.
 */
import { cnEvent, kubeletEvent, podStartEvents, scheduledEvent } from './lib/events.js'
import { comet, logrus, reconcileFields, signerJson, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { chainHeight, cometStartup, nodeUtilsLogs } from './lib/nodelogs.js'
import { podStatus, runningPodStatus } from './lib/podstatus.js'
import { defineScenario } from './lib/scenario.js'
import { discoveryGate, seedEndpoints, seedSigner, setSignerStatus } from './lib/signer.js'
import { DAY, HOUR, MIN, ago, nodeId, uuidFrom } from './lib/util.js'

const NS = 'sc-signer-pubkey'
const CHAIN = 'theta-testnet-001'
const SIGNER = 'val-1-signer'
const SIGNER_IMAGE = 'ghcr.io/voluzi/cosmosigner:3.0.2'
const NU_IMAGE = 'ghcr.io/voluzi/node-utils:4.1.0'
const DNS = `${SIGNER}-privval.${NS}.svc`
const POD_AGE = 150
const POD_IP = '10.244.1.120'
const SIGNER_IPS = ['10.244.1.121', '10.244.1.122']
const PUBKEY_ERR = "error with private validator socket client: can't get pubkey: endpoint connection timed out"

const NODE: NodeOptions = {
  name: 'val-1',
  chainID: CHAIN,
  app: GAIA,
  validator: true,
  spec: {
    genesis: { url: 'https://raw.githubusercontent.com/cosmos/testnets/master/public/genesis.json.gz', chainID: CHAIN },
    persistence: { size: '200Gi', storageClass: 'expandable' },
    validator: { info: { moniker: 'val-1' } },
    cosmosigner: {
      replicas: 2,
      image: SIGNER_IMAGE,
      backend: {
        vault: {
          address: 'https://vault.vault.svc:8200',
          keyName: 'val-1-consensus',
          tokenSecret: { name: 'val-1-vault-token', key: 'token' },
        },
      },
    },
  },
}

/** One run of the app that waits for the signer and gives up. */
function crashRun(now: Date, startedAgo: number, height: number): LogLine[] {
  const o = { now, startedAgo, chainID: CHAIN, nodeID: nodeId(`${NS}/val-1`), version: GAIA.version, moniker: 'val-1' }
  const start = ago(now, startedAgo).getTime()
  const t = (s: number) => new Date(start + s * 1000)
  const lines = cometStartup(o, height).slice(0, 6)
  lines.push(
    comet(t(1.6), 'info', 'privval', 'SignerListener: Listening for new connection', { laddr: 'tcp://0.0.0.0:26659' }),
    comet(t(2.1), 'info', 'privval', 'SignerListener: Connected', { remote: `${SIGNER_IPS[0]}:41822` }),
    comet(t(5.2), 'error', 'privval', 'SignerListener: Ping timeout', { err: 'endpoint connection timed out' }),
    comet(t(5.2), 'info', 'privval', 'SignerListener: Blocking for connection'),
    comet(t(8.2), 'error', 'privval', 'SignerListener: Ping timeout', { err: 'endpoint connection timed out' }),
    { at: t(8.3), text: `Error: ${PUBKEY_ERR}` },
  )
  return lines
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'val-1',
    symptomRule: 'signer-pubkey',
    description:
      'val-1: discovery gate passed, then app exits 1 with "can\'t get pubkey: endpoint connection timed out" repeatedly (NodeRestarted/NodeError); signer val-1-signer runs cosmosigner 3.0.2 (< 3.1.0); val-1-signer-privval has endpoints.',
  },

  async seed(s) {
    const height = chainHeight(CHAIN, ago(s.now, 52 * MIN))
    const start = ago(s.now, POD_AGE)
    const appStart = ago(s.now, POD_AGE - 9)
    const appEnd = ago(s.now, POD_AGE - 18)
    const stack = await seedNode(s, NODE, {
      config: { privValidatorLaddr: 'tcp://0.0.0.0:26659' },
      pvc: { size: '200Gi', storageClass: 'expandable', dataHeight: height },
      status: {
        phase: 'Error',
        validator: true,
        latestHeight: height,
        pvcSize: '200Gi',
        dataUsage: '44%',
        cosmosignerReplicas: 2,
        validatorStatus: 'bonded',
        jailed: false,
      },
      pod: {
        node: 'unmanaged',
        labels: { 'cosmosigner-target': SIGNER, 'chain-node': 'val-1' },
        extraInit: [discoveryGate(NS, SIGNER, NU_IMAGE)],
        status: (pod) =>
          podStatus({
            phase: 'Running',
            podUid: pod.metadata.uid ?? '',
            startTime: start,
            podIP: POD_IP,
            init: [
              { name: 'node-utils', image: NU_IMAGE, ready: true, state: { running: { startedAt: ago(s.now, POD_AGE - 1) } } },
              {
                name: 'wait-cosmosigner-discovery',
                image: NU_IMAGE,
                state: {
                  terminated: { exitCode: 0, reason: 'Completed', startedAt: ago(s.now, POD_AGE - 3), finishedAt: ago(s.now, POD_AGE - 8) },
                },
              },
            ],
            containers: [
              {
                name: 'app',
                image: `${GAIA.image}:${GAIA.version}`,
                state: { terminated: { exitCode: 1, reason: 'Error', startedAt: appStart, finishedAt: appEnd } },
              },
            ],
            initialized: true,
            ready: false,
            transitionAt: appEnd,
          }),
      },
    })
    const pod = stack.pod!
    const signer = await seedSigner(s, { name: SIGNER, image: SIGNER_IMAGE, replicas: 2, owner: stack.cn }, CHAIN, (p, i) =>
      runningPodStatus(p, { now: s.now, ageSeconds: 5 * HOUR, podIP: SIGNER_IPS[i] }),
    )
    const signerLog = (i: number): LogLine[] => {
      const out: LogLine[] = [signerJson(ago(s.now, 5 * HOUR), 'info', 'cosmosigner starting', { version: '3.0.2', node_id: `${SIGNER}-${i}` })]
      for (let t = 52 * MIN; t > 20; t -= 9 * MIN + 30) {
        out.push(
          signerJson(ago(s.now, t), 'info', 'connected to validator', { address: `tcp://${DNS}:26659` }),
          signerJson(ago(s.now, t - 4), 'error', 'privval connection closed', { error: 'read tcp: i/o timeout' }),
          signerJson(ago(s.now, t - 4.1), 'info', 'reconnecting to validator', { backoff: '30s' }),
        )
      }
      if (i === 0) {
        out.push(signerJson(ago(s.now, POD_AGE - 7), 'info', 'connected to validator', { address: `tcp://${DNS}:26659` }))
      }
      return out.sort((a, b) => a.at.getTime() - b.at.getTime())
    }
    await Promise.all([
      s.create({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'val-1-vault-token', namespace: NS },
        type: 'Opaque',
        data: { token: Buffer.from('hvs.CAESIKvdummytokenforchainnodetests').toString('base64') },
      }),
      setSignerStatus(s, signer, 2, 2),
      seedEndpoints(s, signer.privvalService, { name: 'privvalidator', port: 26659 }, [{ ip: POD_IP, pod, ready: false }]),
      scheduledEvent(s, pod, POD_AGE + 1),
      kubeletEvent(s, pod, 'Started', 'Started container node-utils', { container: 'node-utils', init: true, firstAgo: POD_AGE - 1 }),
      kubeletEvent(s, pod, 'Started', 'Started container wait-cosmosigner-discovery', {
        container: 'wait-cosmosigner-discovery',
        init: true,
        firstAgo: POD_AGE - 3,
      }),
      kubeletEvent(s, pod, 'Started', 'Started container app', { container: 'app', firstAgo: POD_AGE - 9 }),
      ...signer.pods.map((p) => podStartEvents(s, p, 5 * HOUR)),
      cnEvent(s, stack.cn, 'NodeStarted', 'Node successfully started', { firstAgo: 20 * DAY }),
      cnEvent(s, stack.cn, 'NodeRestarted', 'Node restarted', { count: 5, firstAgo: 51 * MIN, lastAgo: 11 * MIN }),
      cnEvent(s, stack.cn, 'NodeError', `Pod failed to start: app: exit code 1`, {
        type: 'Warning',
        count: 6,
        firstAgo: 50 * MIN,
        lastAgo: POD_AGE - 19,
      }),
      s.logs(pod.metadata.name, {
        app: { current: crashRun(s.now, POD_AGE - 9, height), previous: crashRun(s.now, 11 * MIN + 30, height) },
        'wait-cosmosigner-discovery': {
          current: [
            logrus(ago(s.now, POD_AGE - 3), 'info', 'waiting for remote signer', { port: 26659, dns: DNS, 'pod-ip': POD_IP, timeout: '25s' }),
            logrus(ago(s.now, POD_AGE - 8.2), 'info', 'signer connected', { remote: `${SIGNER_IPS[0]}:41822`, bytes: 1 }),
            logrus(ago(s.now, POD_AGE - 8.1), 'info', 'remote signer discovery confirmed'),
          ],
        },
        'node-utils': {
          current: nodeUtilsLogs({ now: s.now, startedAgo: POD_AGE - 1, chainID: CHAIN, profiling: 'on', window: 120 }).filter(
            (l) => !/node is ready|got latest block/.test(l.text),
          ),
        },
      }),
      ...signer.pods.map((p, i) => s.logs(p.metadata.name, { cosmosigner: { current: signerLog(i) } })),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    for (let sec = 51 * MIN, i = 0; sec > POD_AGE; sec -= 8 * MIN, i++) {
      const f = reconcileFields('ChainNode', NS, 'val-1', uuidFrom(`val1/${i}`))
      lines.push(
        zapJson(ago(now, sec), 'info', undefined, 'pod failed', { ...f, pod: 'val-1', container: 'app', exitCode: 1 }),
        zapJson(ago(now, sec - 1), 'info', undefined, 'recreating pod', { ...f, pod: 'val-1', reason: 'pod failed' }),
      )
    }
    return lines
  },
})
