/**
 * sc-healthy: a healthy standalone full node on the 5.0.0 line (`fullnode-0`) plus a healthy
 * ChainNodeSet `hub` with two children. `fullnode-0` also carries the benign per-reconcile
 * `NoTrustHeight` warning of nodes without state-sync (facts §3.1) that no rule may flag.
 */
import { ownerRef, type KObject } from './lib/api.js'
import { cnEvent, setEvent } from './lib/events.js'
import { GAIA } from './lib/node.js'
import { chainHeight } from './lib/nodelogs.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR, nodeId } from './lib/util.js'

const NS = 'sc-healthy'
const HUB_CHAIN = 'theta-testnet-001'
const MAIN_CHAIN = 'cosmoshub-4'
const HUB_GENESIS = 'https://raw.githubusercontent.com/cosmos/testnets/master/public/genesis.json.gz'

const FULLNODE: RunningNode = {
  opts: {
    name: 'fullnode-0',
    chainID: MAIN_CHAIN,
    app: GAIA,
    labels: { 'app.kubernetes.io/part-of': 'cosmoshub' },
    spec: {
      genesis: {
        url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz',
        chainID: MAIN_CHAIN,
        useDataVolume: true,
      },
      peers: [
        { id: 'ade4d8bc8cbe014af6ebdf3cb7b1e9ad36f412c0', address: 'seeds.polkachu.com', port: 14956, seed: true },
        { id: '20e1000e88125698264454a884812746c2eb4807', address: 'seeds.lavenderfive.com', port: 14956, seed: true },
      ],
      persistence: { size: '1Ti', storageClass: 'expandable', autoResize: true, initTimeout: '1h' },
      config: {
        override: {
          'app.toml': {
            'minimum-gas-prices': '0.005uatom',
            pruning: 'custom',
            'pruning-keep-recent': '100',
            'pruning-interval': '10',
          },
        },
      },
      resources: { requests: { cpu: '4', memory: '16Gi' }, limits: { memory: '32Gi' } },
    },
  },
  age: 2 * DAY + 5 * HOUR,
  podIP: '10.244.1.20',
  size: '1Ti',
  usage: '61%',
  stack: { appConfig: { pruning: 'custom' } },
}

const SET_STUB: KObject = { apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNodeSet', metadata: { name: 'hub', uid: 'stub' } }

function hubChild(i: number, set: KObject = SET_STUB): RunningNode {
  return {
    opts: {
      name: `hub-fullnodes-${i}`,
      chainID: HUB_CHAIN,
      app: GAIA,
      labels: { nodeset: 'hub', group: 'fullnodes', validator: 'false' },
      owner: set,
      spec: {
        genesis: { url: HUB_GENESIS, chainID: HUB_CHAIN },
        persistence: { size: '200Gi', storageClass: 'expandable', autoResize: true },
      },
    },
    age: 6 * HOUR - i * 1800,
    podIP: `10.244.1.${21 + i}`,
    size: '200Gi',
    usage: `${43 + i}%`,
  }
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'fullnode-0',
    symptomRule: null,
    description:
      'Healthy 5.0.0-line full node (node-utils 4.1.0, Running/Ready, heights advancing, pprof on 6666) with the benign NoTrustHeight warning noise, plus a healthy ChainNodeSet `hub` with children hub-fullnodes-0/1 for --set.',
  },

  async seed(s) {
    const setObj: KObject = {
      apiVersion: 'cosmopilot.voluzi.com/v1',
      kind: 'ChainNodeSet',
      metadata: { name: 'hub', namespace: NS, finalizers: ['cosmopilot.voluzi.com/resource-cleanup'] },
      spec: {
        app: { app: 'gaiad', image: GAIA.image, version: GAIA.version, sdkVersion: 'v0.53' },
        genesis: { url: HUB_GENESIS, chainID: HUB_CHAIN },
        nodes: [{ name: 'fullnodes', instances: 2, persistence: { size: '200Gi', storageClass: 'expandable' } }],
      },
    }
    const [full, set] = await Promise.all([seedRunningNode(s, FULLNODE), s.create(setObj)])
    // Benign: emitted on every reconcile of a node that serves no state-sync snapshots (facts §3.1).
    const noise = cnEvent(s, full.cn, 'NoTrustHeight', 'not adding state-sync details: no state-sync snapshots available', {
      type: 'Warning',
      count: 12_841,
      firstAgo: FULLNODE.age - 30,
      lastAgo: 9,
    })
    const children = await Promise.all([0, 1].map((i) => seedRunningNode(s, hubChild(i, set))))
    const groupSvc = (internal: boolean): KObject => ({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: internal ? 'hub-fullnodes-internal' : 'hub-fullnodes',
        namespace: NS,
        labels: { nodeset: 'hub', group: 'fullnodes', scope: 'group', ...(internal ? { peer: 'true' } : {}) },
        ownerReferences: [ownerRef(set)],
      },
      spec: {
        type: 'ClusterIP',
        ...(internal ? { publishNotReadyAddresses: true } : {}),
        selector: { nodeset: 'hub', group: 'fullnodes', 'chain-id': HUB_CHAIN },
        ports: [
          { name: 'p2p', port: 26656, targetPort: 26656, protocol: 'TCP' },
          { name: 'rpc', port: 26657, targetPort: 26657, protocol: 'TCP' },
          { name: 'lcd', port: 1317, targetPort: 1317, protocol: 'TCP' },
          { name: 'grpc', port: 9090, targetPort: 9090, protocol: 'TCP' },
        ],
      },
    })
    await Promise.all([
      noise,
      s.create(groupSvc(false)),
      s.create(groupSvc(true)),
      s.status(set, {
        phase: 'Running',
        chainID: HUB_CHAIN,
        appVersion: GAIA.version,
        instances: 2,
        readyInstances: 2,
        latestHeight: chainHeight(HUB_CHAIN, s.now) - 1,
        nodes: children.map((c, i) => ({
          name: c.cn.metadata.name,
          uid: c.cn.metadata.uid,
          public: false,
          seed: false,
          id: nodeId(`${NS}/hub-fullnodes-${i}`),
          address: (c.svc?.spec as { clusterIP?: string } | undefined)?.clusterIP ?? '',
          port: 26656,
          group: 'fullnodes',
        })),
      }),
      setEvent(s, set, 'GenesisImported', 'Genesis downloaded using specified URL', { firstAgo: 6 * HOUR + 60 }),
      ...children.map((c, i) => setEvent(s, set, 'NodeCreated', `ChainNode ${c.cn.metadata.name} created`, { firstAgo: 6 * HOUR + 50 - i })),
    ])
  },

  async refresh(s) {
    const set = await s.api.tryGet('cosmopilot.voluzi.com/v1', 'ChainNodeSet', NS, 'hub')
    await Promise.all([
      refreshRunningNode(s, FULLNODE),
      refreshRunningNode(s, hubChild(0)),
      refreshRunningNode(s, hubChild(1)),
      set ? s.status(set, { latestHeight: chainHeight(HUB_CHAIN, new Date()) - 1 }) : undefined,
    ])
  },
})
