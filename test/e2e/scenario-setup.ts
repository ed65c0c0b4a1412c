import { readFileSync } from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { RECENT_BLOCK_MS } from '../../src/snapshot/chain.js'
import { refreshLiveness } from '../cluster/scenarios/index.js'
import type { ScenarioCtx } from '../cluster/scenarios/types.js'

/** The scenario context of the cluster the global setup started (and seeded). */
export function scenarioCtx(): ScenarioCtx {
  return {
    kubeconfigPath: inject('kubeconfigPath'),
    server: inject('server'),
    adminToken: inject('adminToken'),
    kwokNode: inject('kwokNode'),
    unmanagedNode: inject('unmanagedNode'),
    pprofPort: inject('pprofPort'),
    pprofTakenPort: inject('plainHttpPort'),
    clusterDir: inject('clusterDir'),
  }
}

/** Healthy leases and heights go stale after a few seconds; re-stamp them before reading health. */
export async function refreshScenarios(): Promise<void> {
  await refreshLiveness(scenarioCtx())
}

/** Wait until sc-chain-halt's last block is older than what the chain probe and the log reading call recent. */
export async function waitForChainHalt(): Promise<string> {
  const { lastBlockAt } = JSON.parse(readFileSync(path.join(inject('clusterDir'), 'comet', 'sc-chain-halt.json'), 'utf8')) as { lastBlockAt: string }
  const wait = Date.parse(lastBlockAt) + RECENT_BLOCK_MS + 1000 - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  return lastBlockAt
}
