/**
 * doctor against the manual kubectl procedure it replaces, and doctor on a fleet.
 *   npx tsx bench/doctor.ts [--runs N] [--fleet 500] [--dir .cluster]
 * Uses the cluster in --dir (npm run cluster:up -- --scenarios) or starts a throw-away one.
 * Prints medians and ratios measured in the same run; never asserts.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { buildTools, startCluster } from '../test/cluster/cluster.js'
import { readClusterState, useCluster } from '../test/cluster/kube.js'
import { refreshLiveness, seedScenarios } from '../test/cluster/scenarios/index.js'
import { RELEASE_NODE_VERSION, releaseNodeDir } from '../scripts/release-node.mjs'
import { seedFleet } from './fleet.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '7' }, fleet: { type: 'string', default: '500' }, dir: { type: 'string' } } })
const root = path.resolve(import.meta.dirname, '..')
const cli = path.join(root, 'bin', 'chainnode')

let dir = values.dir && existsSync(path.join(values.dir, 'cluster.json')) ? path.resolve(values.dir) : undefined
let stop: (() => Promise<void>) | undefined
if (!dir) {
  dir = mkdtempSync(path.join(tmpdir(), 'chainnode-bench-'))
  const handle = await startCluster({ dir, binDir: await buildTools({}) })
  stop = handle.stop
}
useCluster(dir)
const state = readClusterState(dir)
const ctx = { ...state, pprofPort: state.ports.pprof, clusterDir: dir }
if (stop) await seedScenarios(ctx)
const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: state.kubeconfigPath, NO_COLOR: '1', KUBECTL_CHAINNODE_STATE_DIR: path.join(dir, 'bench-state') }
const kubectl = process.env.KUBECTL ?? 'kubectl'
const operatorPod = execFileSync(kubectl, ['get', 'pods', '-n', 'cosmopilot-system', '-o', 'jsonpath={.items[0].metadata.name}'], { env, encoding: 'utf8' })

const MANUAL: string[][] = [
  ['get', 'chainnode', 'fullnode-0', '-n', 'sc-healthy', '-o', 'wide'],
  ['describe', 'chainnode', 'fullnode-0', '-n', 'sc-healthy'],
  ['get', 'events', '-n', 'sc-healthy', '--sort-by=.lastTimestamp'],
  ['describe', 'pod', 'fullnode-0', '-n', 'sc-healthy'],
  ['logs', 'fullnode-0', '-n', 'sc-healthy', '-c', 'app', '--tail=500'],
  ['logs', 'fullnode-0', '-n', 'sc-healthy', '-c', 'app', '--previous'],
  ['logs', 'fullnode-0', '-n', 'sc-healthy', '-c', 'node-utils', '--tail=500'],
  ['logs', operatorPod, '-n', 'cosmopilot-system', '--tail=500'],
]
const wall = (run: () => void) => {
  const start = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const manual = () => MANUAL.forEach((args) => spawnSync(kubectl, args, { env, stdio: 'ignore' }))
// Node 20 reads the NODE_EXTRA_CA_CERTS bundle while it starts (~40 ms here), before any code of ours;
// doctor trusts the kubeconfig's CA, so its run is the same without it. kubectl never reads it.
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...envWithoutExtraCa } = env
// What krew installs, when `npm run release` has built it for this machine.
const released = path.join(root, 'release', `linux-${process.arch}`, 'kubectl-chainnode')
// The same npm package run by the release's Node (unpacked by `npm run release`): what Node 20 costs.
const releaseNode = path.join(releaseNodeDir(`linux-${process.arch}`), 'package', 'bin', 'node')
const onLinux = (file: string) => process.platform === 'linux' && existsSync(file)

const args = ['doctor', 'fullnode-0', '-n', 'sc-healthy', '--no-probe']
const variants = [
  { label: `bin/chainnode (npm package, Node ${process.versions.node})`, command: [cli, ...args], env },
  ...(extraCaCerts
    ? [{ label: `bin/chainnode without NODE_EXTRA_CA_CERTS (set here: ${extraCaCerts})`, command: [cli, ...args], env: envWithoutExtraCa }]
    : []),
  ...(onLinux(releaseNode)
    ? [
        {
          label: `npm package under Node ${RELEASE_NODE_VERSION} (the release's runtime)`,
          command: [releaseNode, path.join(root, 'bin', 'run.js'), ...args],
          env,
        },
      ]
    : []),
  ...(onLinux(released) ? [{ label: 'release executable (what krew installs)', command: [released, ...args], env }] : []),
].map((variant) => ({
  ...variant,
  times: [] as number[],
  run: () => spawnSync(variant.command[0], variant.command.slice(1), { env: variant.env, stdio: 'ignore' }),
}))

const runs = Number(values.runs)
await refreshLiveness(ctx)
manual()
for (const variant of variants) variant.run()
const manualTimes: number[] = []
for (let i = 0; i < runs; i++) {
  manualTimes.push(wall(manual))
  for (const variant of variants) variant.times.push(wall(variant.run))
}
console.log(`manual procedure (${MANUAL.length} kubectl commands): median ${median(manualTimes).toFixed(0)} ms`)
for (const { label, times } of variants) {
  console.log(
    `doctor fullnode-0, ${label}: median ${median(times).toFixed(0)} ms, ratio to manual ${(median(times) / median(manualTimes)).toFixed(2)} (target 0.25 or less)`,
  )
}

const fleet = Number(values.fleet)
for (const size of [Math.floor(fleet / 2), fleet]) {
  const ns = `bench-fleet-${size}`
  await seedFleet(ctx, ns, size)
  const times: number[] = []
  let requests = ''
  for (let i = 0; i < Math.max(3, Math.floor(runs / 2)); i++) {
    times.push(
      wall(() => {
        const result = spawnSync(cli, ['doctor', '--all', '-n', ns, '--no-probe', '--debug', '-o', 'json', '--fail-on', 'never'], {
          env,
          encoding: 'utf8',
          maxBuffer: 1 << 28,
        })
        const lines = result.stderr.split('\n')
        const gets = lines.filter((l) => l.startsWith('debug: GET '))
        requests = `${gets.length} requests (${gets.filter((l) => !l.includes('/log?')).length} list/get, ${gets.filter((l) => l.includes('/log?')).length} logs)`
      }),
    )
  }
  console.log(`doctor --all on ${size} ChainNodes: median ${median(times).toFixed(0)} ms (target < 3000 ms for 500), ${requests}`)
}
await stop?.()
