/**
 * sc-chain-halt: a real chain that halts with its peers connected. Two validators of equal power
 * (`val-a`, `val-b`) and a full node `full-0` peered with both; `val-b` is then killed: the chain
 * loses its two thirds and stops. `full-0` keeps `val-a` as a peer and its height stalls; `val-a`
 * goes round after round at the next height.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cometStatus, freeLocalPort, initComet, peerAddress, startComet, stopComet, waitForComet, type RunningComet } from '../comet.js'
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
    // The scenario checks its own halt (full-0 logs a consensus timeout above its last height): tests that read the
    // halt from the log alone rely on it. A start that did not halt so, or whose chain did not start (a free port
    // taken by another node of the seeding before this one bound it), is made again, once, before it is reported.
    let halt: Awaited<ReturnType<typeof haltChain>> | undefined
    let failure: unknown
    for (let attempt = 0; attempt < 2 && !halt?.logged; attempt++) {
      if (halt) await stopAll(dir, [halt.valA, halt.fullNode])
      halt = undefined
      failure = undefined
      try {
        halt = await haltChain(dir)
      } catch (error) {
        failure = error
      }
    }
    if (failure || !halt) throw failure
    if (!halt.logged)
      throw new Error(
        `full-0 logged no consensus timeout above the halt height ${halt.height} within ${LOGGED_WITHIN_MS / 1000}s (log ${halt.fullNode.logFile})`,
      )
    // Tests wait until the last block is older than what the probe calls recent; the ports let a test that sees no halt ask why.
    const rpcPorts = { 'val-a': halt.valA.rpcPort, 'full-0': halt.fullNode.rpcPort }
    writeFileSync(join(dir, 'comet', `${NS}.json`), JSON.stringify({ lastBlockAt: halt.lastBlockAt, haltHeight: halt.height, rpcPorts }))
    const peers = [halt.valA, halt.valB].map((v) => ({ id: v.nodeId, address: '127.0.0.1', port: v.p2pPort }))
    await seedCometNode(s, { name: 'full-0', chainID: CHAIN, comet: halt.fullNode, peers, podIP: '10.244.3.30' })
  },
})

/** How long after the halt full-0 has to log its consensus timeout: its propose timeout is 1 s. */
const LOGGED_WITHIN_MS = 30_000

/** Start the three nodes, stop val-b, and wait for the chain to hold still at the height full-0 reaches. */
async function haltChain(dir: string) {
  const [a, b, full] = initComet(dir, [`${NS}/val-a`, `${NS}/val-b`, `${NS}/full-0`], { chainId: CHAIN, validators: 2 })
  const [pa, pb] = [await freeLocalPort(), await freeLocalPort()]
  const addr = (h: typeof a, port: number) => `${h.nodeId}@127.0.0.1:${port}`
  const [valA, valB] = await Promise.all([startComet(dir, a, { p2pPort: pa, peers: [addr(b, pb)] }), startComet(dir, b, { p2pPort: pb, peers: [addr(a, pa)] })])
  const fullNode = await startComet(dir, full, { peers: [peerAddress(valA), peerAddress(valB)] })
  try {
    await waitForComet(fullNode, 'height 3 with both validators as peers', (st) => st.height >= 3 && st.peers === 2)
  } catch (error) {
    await stopAll(dir, [valA, valB, fullNode])
    throw error
  }
  await stopComet(dir, valB)
  // val-a may still commit a block val-b precommitted before it died, and full-0 may still fetch it:
  // the halt height is val-a's once it holds still, and the last block is the one full-0 has at that height.
  let height = (await cometStatus(valA)).height
  for (let tries = 0; tries < 20; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const now = (await cometStatus(valA)).height
    if (now === height) break
    height = now
  }
  await waitForComet(fullNode, `the halt height ${height}`, (st) => st.height >= height)
  const { time: lastBlockAt } = await cometStatus(fullNode)
  let logged = false
  for (const deadline = Date.now() + LOGGED_WITHIN_MS; !(logged = timedOutAbove(fullNode.logFile, height)) && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 500))
  return { valA, valB, fullNode, height, lastBlockAt, logged }
}

/** Stop nodes of a start that is made again (their homes are initialised anew). */
async function stopAll(dir: string, nodes: RunningComet[]): Promise<void> {
  await Promise.all(nodes.map((node) => stopComet(dir, node).catch(() => undefined)))
}

/** Whether the log holds a consensus timeout, past the new height's own, at a height above `height`. */
function timedOutAbove(logFile: string, height: number): boolean {
  return [...readFileSync(logFile, 'utf8').matchAll(/Timed out\s.*\bheight=(\d+)\b.*\bstep=(\w+)/g)].some(
    ([, at, step]) => Number(at) > height && step !== 'RoundStepNewHeight',
  )
}
