/**
 * sc-validators: a real CometBFT kvstore chain of four validators of equal power (blocks every ~1 s,
 * so it keeps producing with three). `val-0`, `val-1` and `val-2` sign every block; `val-3`'s process
 * runs with a key that is not its genesis key, so the genesis validator its ChainNode names misses every
 * block. `val-1-standby` is a fifth process, not peered with the chain, started with `val-1`'s key: two
 * running nodes present one validator key with voting power (the double-sign risk).
 */
import { freeLocalPort, initComet, replaceValidatorKey, shareValidatorKey, startComet, waitForComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

const NS = 'sc-validators'
const CHAIN = 'kvstore-validators-1'

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'val-3',
    symptomRule: 'validator-missed-blocks',
    description:
      "A real 4-validator chain (equal power): val-3 runs with a key that is not its genesis key and misses every block; val-0 signs every block; val-1-standby presents val-1's key with voting power, off the chain (double-sign risk).",
  },

  async seed(s) {
    const dir = s.ctx.clusterDir
    const names = ['val-0', 'val-1', 'val-2', 'val-3', 'val-1-standby']
    const homes = initComet(
      dir,
      names.map((n) => `${NS}/${n}`),
      { chainId: CHAIN, validators: 4, timeoutCommit: '1s' },
    )
    const genesisKeys = homes.map((h) => h.validator.pub_key as { value: string })
    replaceValidatorKey(dir, homes[3])
    shareValidatorKey(homes[1], homes[4])
    const ports = await Promise.all(homes.slice(0, 4).map(() => freeLocalPort()))
    const peers = (i: number) => homes.slice(0, 4).flatMap((h, j) => (j === i ? [] : [`${h.nodeId}@127.0.0.1:${ports[j]}`]))
    const running = await Promise.all([
      ...homes.slice(0, 4).map((h, i) => startComet(dir, h, { p2pPort: ports[i], peers: peers(i) })),
      startComet(dir, homes[4]),
    ])
    await waitForComet(running[0], 'height 4', (st) => st.height >= 4, 60_000)
    await Promise.all(
      names.map((name, i) =>
        seedCometNode(s, {
          name,
          chainID: CHAIN,
          comet: running[i],
          podIP: `10.244.3.${50 + i}`,
          // The operator writes the key the ChainNode was created with: val-3's genesis key, not the one its process runs.
          validator: { pubKey: genesisKeys[i === 4 ? 1 : i] },
        }),
      ),
    )
  },
})
