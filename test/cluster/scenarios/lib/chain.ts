/**
 * A ChainNode whose Pod stands in front of a real CometBFT process (test/cluster/comet.ts): its
 * 26657 forwards to the process's RPC and its `app` log is the process's own output.
 */
import { type RunningComet } from '../../comet.js'
import { GAIA, type AppSpec } from './node.js'
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
  /** A validator ChainNode: .spec.validator set, and the consensus key the operator would have written into .status.pubKey. */
  validator?: { pubKey?: { value: string }; jailed?: boolean; validatorStatus?: string; validatorAddress?: string }
  /** The app the ChainNode runs (gaiad unless said), and more of its spec and status (a Cosmos SDK chain's upgrades). */
  app?: AppSpec
  spec?: Record<string, unknown>
  status?: Record<string, unknown>
}

/** The operator's .status.pubKey form of a CometBFT JSON key (cosmos-sdk's proto JSON of an ed25519 key). */
export const operatorPubKey = (key: { value: string }) => JSON.stringify({ '@type': '/cosmos.crypto.ed25519.PubKey', key: key.value })

export async function seedCometNode(s: Seeder, o: ChainNodeOptions): Promise<void> {
  const node: RunningNode = {
    opts: {
      name: o.name,
      chainID: o.chainID,
      app: o.app ?? GAIA,
      spec: { peers: o.peers ?? [], ...(o.validator ? { validator: { info: { moniker: o.name } } } : {}), ...o.spec },
      validator: Boolean(o.validator),
    },
    age: 120,
    podIP: o.podIP,
    profiling: 'absent',
    stack: {
      status: {
        phase: o.phase ?? 'Running',
        latestHeight: 1,
        chainID: o.chainID,
        ...(o.validator
          ? {
              validator: true,
              ...(o.validator.pubKey ? { pubKey: operatorPubKey(o.validator.pubKey) } : {}),
              jailed: o.validator.jailed ?? false,
              validatorStatus: o.validator.validatorStatus ?? 'bonded',
              ...(o.validator.validatorAddress ? { validatorAddress: o.validator.validatorAddress } : {}),
            }
          : {}),
        ...o.status,
      },
    },
  }
  await seedRunningNode(s, node)
  if (!s.io.serveLogFile) throw new Error('this cluster IO cannot serve log files')
  await Promise.all([s.io.serveLogFile(s.ns, o.name, 'app', o.comet.logFile), s.forward(o.name, 26657, o.rpcPort ?? o.comet.rpcPort)])
}
