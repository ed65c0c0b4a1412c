/**
 * sc-chain-halt: a real chain that halts with its peers connected. Two validators of equal power
 * (`val-a`, `val-b`) and a full node `full-0` peered with both; `val-b` is then killed: the chain
 * loses its two thirds and stops. `full-0` keeps `val-a` as a peer and its height stalls; `val-a`
 * goes round after round at the next height.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cometStatus, freeLocalPort, initComet, peerAddress, startComet, stopComet, waitForComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

const NS = 'sc-chain-halt'
const CHAIN = 'kvstore-halt-1'

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'full-0',
    symptomRule: 'not-syncing',
    description:
      'full-0: a real CometBFT full node peered with two validators of equal power; one validator stopped, the chain halted, the full node keeps one peer and stalls.',
  },

  async seed(s) {
    const dir = s.ctx.clusterDir
    const [a, b, full] = initComet(dir, [`${NS}/val-a`, `${NS}/val-b`, `${NS}/full-0`], { chainId: CHAIN, validators: 2 })
    const [pa, pb] = [await freeLocalPort(), await freeLocalPort()]
    const addr = (h: typeof a, port: number) => `${h.nodeId}@127.0.0.1:${port}`
    const [valA, valB] = await Promise.all([
      startComet(dir, a, { p2pPort: pa, peers: [addr(b, pb)] }),
      startComet(dir, b, { p2pPort: pb, peers: [addr(a, pa)] }),
    ])
    const fullNode = await startComet(dir, full, { peers: [peerAddress(valA), peerAddress(valB)] })
    await waitForComet(fullNode, 'height 3 with both validators as peers', (st) => st.height >= 3 && st.peers === 2)
    await stopComet(dir, valB)
    // val-a may still commit a block val-b precommitted before it died, and full-0 may still fetch it:
    // the halt height is val-a's once it holds still, and the last block is the one full-0 has at that height.
    let halted = (await cometStatus(valA)).height
    for (let tries = 0; tries < 20; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const now = (await cometStatus(valA)).height
      if (now === halted) break
      halted = now
    }
    await waitForComet(fullNode, `the halt height ${halted}`, (st) => st.height >= halted)
    // Tests wait until the last block is older than what the probe calls recent; the ports let a test that sees no halt ask why.
    const { time } = await cometStatus(fullNode)
    const rpcPorts = { 'val-a': valA.rpcPort, 'full-0': fullNode.rpcPort }
    writeFileSync(join(dir, 'comet', `${NS}.json`), JSON.stringify({ lastBlockAt: time, haltHeight: halted, rpcPorts }))
    const peers = [valA, valB].map((v) => ({ id: v.nodeId, address: '127.0.0.1', port: v.p2pPort }))
    await seedCometNode(s, { name: 'full-0', chainID: CHAIN, comet: fullNode, peers, podIP: '10.244.3.30' })
  },
})
