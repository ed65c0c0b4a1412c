/**
 * sc-chain-no-peers: `lonely-0` is a real CometBFT full node (JSON logs) whose only seed does not
 * answer: zero peers, nothing to dial, stuck at its start height (no block yet) while catching up.
 */
import { freeLocalPort, initComet, startComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

const NS = 'sc-chain-no-peers'
const CHAIN = 'kvstore-lonely-1'
const SEED_ID = '5eed00000000000000000000000000000000dead'

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'lonely-0',
    symptomRule: 'not-syncing',
    description: 'lonely-0: a real CometBFT full node whose only seed does not answer: 0 peers, stuck at its start height, phase Syncing.',
  },

  async seed(s) {
    // Home 0 is the chain's validator, never started: the full node has nobody to sync from.
    const [, home] = initComet(s.ctx.clusterDir, [`${NS}/validator`, `${NS}/lonely-0`], { chainId: CHAIN, logFormat: () => 'json' })
    const seedPort = await freeLocalPort()
    const comet = await startComet(s.ctx.clusterDir, home, { seeds: [`${SEED_ID}@127.0.0.1:${seedPort}`] })
    await seedCometNode(s, {
      name: 'lonely-0',
      chainID: CHAIN,
      comet,
      phase: 'Syncing',
      peers: [{ id: SEED_ID, address: '127.0.0.1', port: seedPort, seed: true }],
      podIP: '10.244.3.20',
    })
  },
})
