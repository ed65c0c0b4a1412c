import type { SnapshotIndex } from '../snapshot/index.js'
import { PROFILING_PORT } from '../snapshot/node-layout.js'
import { usageError } from '../util/errors.js'
import { configFile, tomlString } from '../snapshot/node-config.js'
import type { ProfileTarget } from '../pprof/capture.js'
import type { ChainNode } from '../snapshot/kinds.js'

export interface ProfilingEndpoint {
  port: number
  serverName: string
}

/**
 * Where the target serves net/http/pprof inside the Pod. node-utils listens on 6666 (spec §4.1);
 * the chain process (CometBFT and every Cosmos SDK app built on it) on `rpc.pprof_laddr` of the
 * config.toml the operator rendered into ConfigMap <node>, empty (off) by default.
 */
export function profilingEndpoint(index: SnapshotIndex, node: ChainNode, target: ProfileTarget): ProfilingEndpoint {
  if (target === 'node-utils') return { port: PROFILING_PORT, serverName: 'node-utils' }
  const name = node.metadata.name
  const namespace = node.metadata.namespace ?? ''
  const config = configFile(index, node, 'config.toml')
  if (config === undefined)
    throw usageError(
      `chainnode "${name}" has no rendered config.toml (ConfigMap ${name}) to find the chain's pprof address in`,
      `see chainnode describe ${name} -n ${namespace}`,
    )
  const laddr = tomlString(config, 'rpc', 'pprof_laddr') ?? ''
  const port = /:(\d{1,5})$/.exec(laddr.trim())?.[1]
  if (laddr.trim() === '' || port === undefined || Number(port) < 1 || Number(port) > 65535) {
    const why = laddr.trim() === '' ? 'rpc.pprof_laddr is empty' : `rpc.pprof_laddr "${laddr}" names no port`
    throw usageError(
      `the chain process of ${name} does not serve pprof: ${why} in ConfigMap/${name} config.toml`,
      `enable it with the ChainNode config override (the operator restarts the node to apply it): kubectl patch chainnode ${name} -n ${namespace} --type merge -p '{"spec":{"config":{"override":{"config.toml":{"rpc":{"pprof_laddr":"127.0.0.1:6060"}}}}}}'`,
    )
  }
  return { port: Number(port), serverName: 'the chain process' }
}
