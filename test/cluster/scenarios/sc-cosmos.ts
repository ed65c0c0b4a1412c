/**
 * sc-cosmos: a real Cosmos SDK chain (simd, cosmos-sdk v0.50.3) of four validators bonding 40/40/10/10, with a
 * short slashing window (50 blocks, min_signed_per_window 0.5, a 60 s jail) and voting periods (600 s; 15 s
 * expedited), each validator behind a ChainNode and its Pod (26657 forwarded to the process, its output as the
 * `app` log). Seeded on demand (test/e2e/cosmos.e2e.test.ts), not with the fleet: the test drives it through
 * time (val-2 stops signing and is jailed, a twin of val-3 double-signs, proposals pass, the upgrade halts it).
 * The handles the test needs are written to <clusterDir>/simd/sc-cosmos.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { initSimd, simdPeer, startSimd, type RunningSimd, type SimdHome } from '../simd.js'
import { waitForComet } from '../comet.js'
import { seedCometNode } from './lib/chain.js'
import { defineScenario } from './lib/scenario.js'

export const COSMOS_NS = 'sc-cosmos'
export const COSMOS_CHAIN = 'simchain-1'
export const SIMAPP = { app: 'simd', image: 'ghcr.io/cosmos/simapp', version: 'v0.50.3', sdkVersion: 'v0.50' }
export const COSMOS_VALIDATORS = ['val-0', 'val-1', 'val-2', 'val-3']

/** What the test reads back: each home (keys, addresses) and the running processes' ports and pids. */
export interface CosmosScenarioState {
  homes: SimdHome[]
  running: RunningSimd[]
  twin: SimdHome
}

export const cosmosStateFile = (clusterDir: string) => join(clusterDir, 'simd', `${COSMOS_NS}.json`)

export default defineScenario({
  info: {
    name: COSMOS_NS,
    namespace: COSMOS_NS,
    node: 'val-0',
    symptomRule: null,
    description:
      'A real 4-validator Cosmos SDK chain (simd): slashing window 50, min_signed 0.5; the test stops val-2 (jail risk, then jailed), runs a twin of val-3 (tombstoned), passes proposals (governance, upgrade plan, the halt).',
  },

  async seed(s) {
    const dir = s.ctx.clusterDir
    const homes = initSimd(
      dir,
      [...COSMOS_VALIDATORS, 'val-3-twin'].map((n) => `${COSMOS_NS}/${n}`),
      {
        chainId: COSMOS_CHAIN,
        stakes: [40, 40, 10, 10],
        genesis: {
          signedBlocksWindow: 50,
          minSignedPerWindow: '0.500000000000000000',
          downtimeJailDuration: '60s',
          votingPeriod: '600s',
          expeditedVotingPeriod: '15s',
        },
      },
    )
    const first = await startSimd(dir, homes[0])
    const running = [first, ...(await Promise.all(homes.slice(1, 4).map((h) => startSimd(dir, h, { peers: [simdPeer(first)] }))))]
    await waitForComet(first, 'height 3', (st) => st.height >= 3, 120_000)
    await Promise.all(
      COSMOS_VALIDATORS.map((name, i) =>
        seedCometNode(s, {
          name,
          chainID: COSMOS_CHAIN,
          comet: running[i],
          podIP: `10.244.4.${60 + i}`,
          app: SIMAPP,
          // The operator writes the consensus key and the valoper once the validator is created.
          validator: { pubKey: homes[i].validator.pub_key as { value: string }, validatorAddress: homes[i].valoper },
        }),
      ),
    )
    mkdirSync(join(dir, 'simd'), { recursive: true })
    const state: CosmosScenarioState = { homes: homes.slice(0, 4), running, twin: homes[4] }
    writeFileSync(cosmosStateFile(dir), JSON.stringify(state, null, 2))
  },
})
