import { readFileSync } from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { chainLogSignals } from '../../src/analysis/chain-logs.js'
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

/**
 * Wait until sc-chain-halt's last block is older than what the chain probe and the log reading call recent, and
 * until full-0's own log shows the halt: a real chain says so only once consensus has timed out at the height it
 * cannot commit, which on a loaded machine can come some seconds after its last block. Bounded: a minute at most,
 * then the tests read what there is.
 */
export async function waitForChainHalt(): Promise<string> {
  const comet = path.join(inject('clusterDir'), 'comet')
  const { lastBlockAt } = JSON.parse(readFileSync(path.join(comet, 'sc-chain-halt.json'), 'utf8')) as { lastBlockAt: string }
  const wait = Date.parse(lastBlockAt) + RECENT_BLOCK_MS + 1000 - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  for (const deadline = Date.now() + 60_000; Date.now() < deadline && !haltInLog(path.join(comet, 'sc-chain-halt_full-0.cri.log'));)
    await new Promise((resolve) => setTimeout(resolve, 1000))
  return lastBlockAt
}

/** What doctor --no-probe reads of full-0's log says consensus is stuck (analysis/chain-logs.ts, on the CRI file kwok serves). */
function haltInLog(file: string): boolean {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => /^(\S+Z) std(?:out|err) [FP] (.*)$/.exec(line))
    .flatMap((m) => (m ? [{ at: m[1], text: m[2] }] : []))
  return chainLogSignals(lines, 'app', Date.now()).consensusStuck !== undefined
}
