import { readFileSync } from 'node:fs'
import path from 'node:path'
import { inject } from 'vitest'
import { chainLogSignals } from '../../src/analysis/chain-logs.js'
import { RECENT_BLOCK_MS } from '../../src/snapshot/chain.js'
import { cometStatus } from '../cluster/comet.js'
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
 * then it fails with what full-0's log and the two nodes' RPC said, so a scenario that did not halt is named as such
 * rather than read as a rule that missed it.
 */
export async function waitForChainHalt(): Promise<string> {
  const comet = path.join(inject('clusterDir'), 'comet')
  const recorded = JSON.parse(readFileSync(path.join(comet, 'sc-chain-halt.json'), 'utf8')) as HaltRecord
  const wait = Date.parse(recorded.lastBlockAt) + RECENT_BLOCK_MS + 1000 - Date.now()
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
  const logFile = path.join(comet, 'sc-chain-halt_full-0.cri.log')
  for (const deadline = Date.now() + 60_000; !haltInLog(logFile); await new Promise((resolve) => setTimeout(resolve, 1000)))
    if (Date.now() > deadline) throw new Error(await whyNoHalt(recorded, logFile))
  return recorded.lastBlockAt
}

/** What sc-chain-halt's seeding recorded (test/cluster/scenarios/sc-chain-halt.ts). */
interface HaltRecord {
  lastBlockAt: string
  haltHeight?: number
  rpcPorts?: Record<string, number>
}

function logEntries(file: string) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => /^(\S+Z) std(?:out|err) [FP] (.*)$/.exec(line))
    .flatMap((m) => (m ? [{ at: m[1], text: m[2] }] : []))
}

/** What doctor --no-probe reads of full-0's log says consensus is stuck (analysis/chain-logs.ts, on the CRI file kwok serves). */
function haltInLog(file: string): boolean {
  return chainLogSignals(logEntries(file), 'app', Date.now()).consensusStuck !== undefined
}

async function whyNoHalt(recorded: HaltRecord, logFile: string): Promise<string> {
  const heights = await Promise.all(
    Object.entries(recorded.rpcPorts ?? {}).map(async ([node, rpcPort]) => {
      const answer = await cometStatus({ rpcPort })
        .then((status) => `height ${status.height} at ${status.time}, ${status.peers} peer(s)`)
        .catch((error: Error) => `no answer (${error.message})`)
      return `${node}: ${answer}`
    }),
  )
  const consensus = logEntries(logFile)
    .filter((line) => /Timed out|committed state|SwitchToConsensus|Time to switch/.test(line.text))
    .slice(-8)
    .map((line) => `  ${line.at} ${line.text.slice(0, 160)}`)
  return [
    `sc-chain-halt: full-0's log shows no halt a minute after its last block (${recorded.lastBlockAt}, halt height ${recorded.haltHeight ?? '?'})`,
    ...heights,
    `full-0's last consensus lines (${logFile}):`,
    ...consensus,
  ].join('\n')
}
