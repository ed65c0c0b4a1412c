/**
 * The cluster a bench runs against: the one in `dir` (npm run cluster:up -- --scenarios), or a throw-away
 * one with every scenario seeded, stopped by `stop`. `env` runs the CLI against it with its own state folder.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildTools, startCluster } from '../test/cluster/cluster.js'
import { readClusterState, useCluster } from '../test/cluster/kube.js'
import { keepLeaderRenewing, seedScenarios } from '../test/cluster/scenarios/index.js'

export async function benchCluster(dirFlag: string | undefined) {
  let dir = dirFlag && existsSync(path.join(dirFlag, 'cluster.json')) ? path.resolve(dirFlag) : undefined
  let stop: (() => Promise<void>) | undefined
  if (!dir) {
    dir = mkdtempSync(path.join(tmpdir(), 'chainnode-bench-'))
    stop = (await startCluster({ dir, binDir: await buildTools({}) })).stop
  }
  useCluster(dir)
  const state = readClusterState(dir)
  const ctx = { ...state, pprofPort: state.ports.pprof, clusterDir: dir }
  if (stop) {
    await seedScenarios(ctx)
    // As the real manager does, for the whole bench: a healthy leader that looked lost minutes in would change verdicts.
    const stopRenewing = keepLeaderRenewing(ctx)
    const stopCluster = stop
    stop = async () => {
      stopRenewing()
      await stopCluster()
    }
  }
  const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: state.kubeconfigPath, NO_COLOR: '1', KUBECTL_CHAINNODE_STATE_DIR: path.join(dir, 'bench-state') }
  return { dir, state, ctx, env, stop: async () => stop?.() }
}
