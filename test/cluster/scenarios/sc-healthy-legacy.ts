/**
 * sc-healthy-legacy: a healthy node whose pod was built by the 3.0.0 operator line: main
 * container named after the binary (`gaiad`, not `app`), node-utils 2.10.0 with `TMKMS_PROXY`
 * in its env, no profiling listener in that node-utils build (no 6666 forward).
 */
import { GAIA } from './lib/node.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR } from './lib/util.js'

const NS = 'sc-healthy-legacy'

const NODE: RunningNode = {
  opts: {
    name: 'gaia-0',
    chainID: 'cosmoshub-4',
    line: '3',
    app: GAIA,
    nodeUtilsVersion: '2.10.0',
    spec: {
      genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: 'cosmoshub-4' },
      peers: [{ id: 'ade4d8bc8cbe014af6ebdf3cb7b1e9ad36f412c0', address: 'seeds.polkachu.com', port: 14956, seed: true }],
      persistence: { size: '500Gi', storageClass: 'expandable' },
    },
  },
  age: 9 * DAY + 2 * HOUR,
  podIP: '10.244.1.30',
  size: '500Gi',
  usage: '57%',
  profiling: 'absent',
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'gaia-0',
    symptomRule: null,
    description:
      'Healthy node on the 3.0.0 operator line: main container `gaiad`, node-utils 2.10.0 with TMKMS_PROXY env, no profiling listener (no 6666 PortForward).',
  },
  async seed(s) {
    await seedRunningNode(s, NODE)
  },
  async refresh(s) {
    await refreshRunningNode(s, NODE)
  },
})
