/**
 * sc-not-syncing: `stuck-0` has no way to find peers (no spec.peers: persistent_peers = "" and
 * seeds = "" in its config.toml; stale address book). Phase Syncing, latestHeight frozen, the app
 * logs `Ensure peers` with 0 outbound peers, `dialing failed` errors and `No addresses to dial`,
 * node-utils reports `syncing=true` at the same height; blockThreshold 60s is set and the
 * readiness probe keeps failing with 417 (pod Ready=False).
 */
import { cnEvent, kubeletEvent, scheduledEvent } from './lib/events.js'
import { comet, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { chainHeight, cometStartup, nodeUtilsLogs } from './lib/nodelogs.js'
import { runningPodStatus } from './lib/podstatus.js'
import { defineScenario } from './lib/scenario.js'
import { HOUR, ago, nodeId } from './lib/util.js'

const NS = 'sc-not-syncing'
const CHAIN = 'theta-testnet-001'
const POD_AGE = 26 * 60

const NODE: NodeOptions = {
  name: 'stuck-0',
  chainID: CHAIN,
  app: GAIA,
  spec: {
    genesis: { url: 'https://raw.githubusercontent.com/cosmos/testnets/master/public/genesis.json.gz', chainID: CHAIN },
    persistence: { size: '200Gi', storageClass: 'expandable' },
    config: { blockThreshold: '60s' },
  },
}

const STALE_PEERS = [
  ['a4a09dc0d1b8f7dcdaa1b85c7e4e9a3e2f0b1c55', '142.132.199.236'],
  ['3c9c7a0b7ad2b1fa1db4a8d1ae0b6dc9a5d7e811', '65.108.71.163'],
  ['e1b058e5cfa2b836ddaa496b10911da62dcf182e', '51.89.7.235'],
]

function appLogs(now: Date, frozen: number, id: string): LogLine[] {
  const o = { now, startedAgo: POD_AGE - 4, chainID: CHAIN, nodeID: id, version: GAIA.version, moniker: 'stuck-0', persistentPeers: [] }
  const out = cometStartup(o, frozen)
  const start = ago(now, POD_AGE - 4).getTime()
  const t = (sec: number) => new Date(start + sec * 1000)
  out.push(
    comet(t(2.2), 'info', 'blocksync', 'Starting block sync', { height: frozen + 1 }),
    comet(t(2.3), 'info', 'consensus', 'service start', { impl: 'ConsensusState', msg: 'Starting State service' }),
  )
  // First minutes: the address book's stale entries fail; then nothing is left to dial.
  let sec = 32
  for (let round = 0; sec < POD_AGE - 10; round++, sec += 30) {
    const dialable = round < 6
    out.push(
      comet(t(sec), 'info', 'pex', 'Ensure peers', {
        numDialing: 0,
        numInPeers: 0,
        numOutPeers: 0,
        numToDial: dialable ? STALE_PEERS.length : 0,
      }),
    )
    if (dialable) {
      for (const [pid, ip] of STALE_PEERS) {
        out.push(
          comet(t(sec + 3.1), 'error', 'pex', `dialing failed (attempts: ${round + 1}): dial tcp ${ip}:26656: i/o timeout`, {
            addr: `${pid}@${ip}:26656`,
          }),
        )
      }
    } else {
      out.push(comet(t(sec + 0.01), 'info', 'pex', 'No addresses to dial. Falling back to seeds'))
    }
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime())
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'stuck-0',
    symptomRule: 'not-syncing',
    description:
      'stuck-0: no peers configured (persistent_peers/seeds empty), phase Syncing with a frozen latestHeight, app logs 0 outbound peers / dialing failed / no addresses to dial, blockThreshold 60s, readiness 417 (Ready=False).',
  },

  async seed(s) {
    const frozen = chainHeight(CHAIN, ago(s.now, 3 * HOUR))
    const id = nodeId(`${NS}/stuck-0`)
    const stack = await seedNode(s, NODE, {
      config: { persistentPeers: '', seeds: '' },
      pvc: { size: '200Gi', storageClass: 'expandable', dataHeight: frozen },
      status: { phase: 'Syncing', latestHeight: frozen, dataUsage: '52%', pvcSize: '200Gi' },
      pod: {
        node: 'unmanaged',
        status: (pod) => runningPodStatus(pod, { now: s.now, ageSeconds: POD_AGE, podIP: '10.244.1.70', notReady: ['app'] }),
      },
    })
    const pod = stack.pod!
    await Promise.all([
      scheduledEvent(s, pod, POD_AGE + 1),
      kubeletEvent(s, pod, 'Started', 'Started container app', { container: 'app', firstAgo: POD_AGE - 4 }),
      kubeletEvent(s, pod, 'Started', 'Started container node-utils', { container: 'node-utils', init: true, firstAgo: POD_AGE - 2 }),
      // The readiness failures, as an events.k8s.io series (eventTime set, lastTimestamp null).
      s.eventV1({
        regarding: pod,
        reason: 'Unhealthy',
        note: 'Readiness probe failed: HTTP probe failed with statuscode: 417',
        action: 'Probe',
        type: 'Warning',
        at: ago(s.now, POD_AGE - 60),
        reportingController: 'kubelet',
        reportingInstance: s.ctx.unmanagedNode,
        series: { count: 151, lastObservedTime: ago(s.now, 6) },
        fieldPath: 'spec.containers{app}',
      }),
      cnEvent(s, stack.cn, 'NodeStarted', 'Node successfully started', { firstAgo: POD_AGE - 30 }),
      cnEvent(s, stack.cn, 'NodeSyncing', 'Node is syncing', { firstAgo: POD_AGE - 31 }),
      s.logs(pod.metadata.name, {
        'node-utils': {
          current: nodeUtilsLogs({
            now: s.now,
            startedAgo: POD_AGE - 2,
            chainID: CHAIN,
            profiling: 'on',
            syncing: true,
            blockThreshold: '1m0s',
            frozenHeight: frozen,
          }),
        },
        app: { current: appLogs(s.now, frozen, id) },
      }),
      s.forward(pod.metadata.name, 6666, s.ctx.pprofPort),
    ])
  },
})
