/**
 * sc-chain-rpc-dead: `gone-0` ran a real CometBFT node that produced blocks, then its process died.
 * The Pod still says Running; 26657 forwards to the dead RPC port (connection refused): the chain
 * probe says it got no answer (rpc-unreachable, with the reason in one line) and doctor finishes with the rest of its checks.
 */
import { initComet, startComet, stopComet, waitForComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

const NS = 'sc-chain-rpc-dead'
const CHAIN = 'kvstore-gone-1'

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'gone-0',
    symptomRule: 'rpc-unreachable',
    description: 'gone-0: its real CometBFT process produced blocks, then died; the Pod is Running and its RPC on 26657 refuses connections.',
  },

  async seed(s) {
    const [home] = initComet(s.ctx.clusterDir, [`${NS}/gone-0`], { chainId: CHAIN })
    const comet = await startComet(s.ctx.clusterDir, home)
    await waitForComet(comet, 'height 3', (st) => st.height >= 3)
    await stopComet(s.ctx.clusterDir, comet)
    await seedCometNode(s, { name: 'gone-0', chainID: CHAIN, comet, podIP: '10.244.3.40' })
  },
})
