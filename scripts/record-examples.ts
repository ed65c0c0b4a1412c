/**
 * Record the example bundles under examples/bundles/ from the test-cluster scenarios:
 *   npm run cluster:up -- --scenarios && npx tsx scripts/record-examples.ts && npm run cluster:down
 * One bundle per scenario namespace, named after the scenario without its `sc-` prefix.
 * `npx tsx scripts/record-examples.ts .cluster sc-a sc-b` records only those scenarios.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { readClusterState, useCluster } from '../test/cluster/kube.js'
import { SCENARIOS, refreshLiveness } from '../test/cluster/scenarios/index.js'

const root = path.resolve(import.meta.dirname, '..')
const dir = process.argv[2] ?? path.join(root, '.cluster')
const only = process.argv.slice(3)
useCluster(dir)
const state = readClusterState(dir)
const out = path.join(root, 'examples', 'bundles')
mkdirSync(out, { recursive: true })

await refreshLiveness({ ...state, pprofPort: state.ports.pprof, clusterDir: dir })
for (const scenario of SCENARIOS.filter((s) => only.length === 0 || only.includes(s.name))) {
  const file = path.join(out, `${scenario.name.replace(/^sc-/, '')}.tgz`)
  rmSync(file, { force: true })
  try {
    execFileSync(path.join(root, 'bin', 'chainnode'), ['collect', '--all', '-n', scenario.namespace, '--out', file], {
      env: { ...process.env, KUBECONFIG: state.kubeconfigPath, KUBECTL_CHAINNODE_STATE_DIR: path.join(dir, 'state') },
      stdio: 'inherit',
    })
  } catch (error) {
    // collect exits 3 when a read failed; the bundle is still written and says what failed.
    if ((error as { status?: number }).status !== 3) throw error
  }
}
