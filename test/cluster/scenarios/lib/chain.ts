/**
 * A ChainNode whose Pod stands in front of a real CometBFT process (test/cluster/comet.ts): its
 * 26657 forwards to the process's RPC and its `app` log is the process's own output.
 */
import { type RunningComet } from '../../comet.js'
import { GAIA } from './node.js'
import { seedRunningNode, type RunningNode } from './running.js'
import type { Seeder } from './seeder.js'

export interface ChainNodeOptions {
  name: string
  chainID: string
  comet: RunningComet
  phase?: string
  /** spec.peers of the ChainNode (rendered into config.toml's seeds / persistent_peers). */
  peers?: { id: string; address: string; port: number; seed?: boolean }[]
  /** Forward 26657 here instead of the process's RPC (a dead RPC: a port nothing listens on). */
  rpcPort?: number
  podIP: string
}

export async function seedCometNode(s: Seeder, o: ChainNodeOptions): Promise<void> {
  const node: RunningNode = {
    opts: { name: o.name, chainID: o.chainID, app: GAIA, spec: { peers: o.peers ?? [] } },
    age: 120,
    podIP: o.podIP,
    profiling: 'absent',
    stack: { status: { phase: o.phase ?? 'Running', latestHeight: 1, chainID: o.chainID } },
  }
  await seedRunningNode(s, node)
  if (!s.io.serveLogFile) throw new Error('this cluster IO cannot serve log files')
  await Promise.all([s.io.serveLogFile(s.ns, o.name, 'app', o.comet.logFile), s.forward(o.name, 26657, o.rpcPort ?? o.comet.rpcPort)])
}
