/**
 * sc-healthy-chain: `node-0` stands in front of a real CometBFT v0.38 node (kvstore app, blocks every
 * ~0.3 s): the chain probe reads a recent last block, so the height moves at once, and no rule fires.
 */
import { initComet, startComet, waitForComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

const NS = 'sc-healthy-chain'
const CHAIN = 'kvstore-healthy-1'

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'node-0',
    symptomRule: null,
    description: 'node-0: a real CometBFT node producing blocks (RPC on 26657 through a kwok port-forward, its real log as the app log).',
  },

  async seed(s) {
    const [home] = initComet(s.ctx.clusterDir, [`${NS}/node-0`], { chainId: CHAIN })
    const comet = await startComet(s.ctx.clusterDir, home)
    await waitForComet(comet, 'height 3', (st) => st.height >= 3)
    await seedCometNode(s, { name: 'node-0', chainID: CHAIN, comet, podIP: '10.244.3.10' })
  },
})
