import { inject } from 'vitest'
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
