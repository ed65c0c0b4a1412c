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

// A real CometBFT node behind the Pod (scenario sc-healthy-chain), so the chain probe has something to ask.
const [NODE, NS] = ['node-0', 'sc-healthy-chain']
const MANUAL: string[][] = [
  ['get', 'chainnode', NODE, '-n', NS, '-o', 'wide'],
  ['describe', 'chainnode', NODE, '-n', NS],
  ['get', 'events', '-n', NS, '--sort-by=.lastTimestamp'],
  ['describe', 'pod', NODE, '-n', NS],
  ['logs', NODE, '-n', NS, '-c', 'app', '--tail=500'],
  ['logs', NODE, '-n', NS, '-c', 'app', '--previous'],
  ['logs', NODE, '-n', NS, '-c', 'node-utils', '--tail=500'],
  ['logs', operatorPod, '-n', 'cosmopilot-system', '--tail=500'],
]
const wall = (run: () => void) => {
  const start = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
/** The engineer's own chain check: `kubectl port-forward pod/NODE :26657`, then curl /status and /net_info. */
const CHAIN_CHECK = `${kubectl} port-forward -n ${NS} pod/${NODE} :26657 > pf.out 2>&1 & pf=$!
i=0; until port=$(sed -n 's/^Forwarding from 127.0.0.1:\\([0-9]*\\).*/\\1/p' pf.out) && [ -n "$port" ] || [ $i -gt 500 ]; do i=$((i+1)); sleep 0.02; done
curl -s localhost:$port/status > /dev/null; curl -s localhost:$port/net_info > /dev/null; kill $pf`
const chainDir = mkdtempSync(path.join(tmpdir(), 'bench-chain-'))
const manual = () => {
  MANUAL.forEach((args) => spawnSync(kubectl, args, { env, stdio: 'ignore' }))
  spawnSync('sh', ['-c', CHAIN_CHECK], { env, cwd: chainDir, stdio: 'ignore' })
}
// Node 20 reads the NODE_EXTRA_CA_CERTS bundle while it starts (~40 ms here), before any code of ours;
// doctor trusts the kubeconfig's CA, so its run is the same without it. kubectl never reads it.
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...envWithoutExtraCa } = env
// What krew installs, when `npm run release` has built it for this machine.
const released = path.join(root, 'release', `linux-${process.arch}`, 'kubectl-chainnode')
// The same npm package run by the release's Node (unpacked by `npm run release`): what Node 20 costs.
const releaseNode = path.join(releaseNodeDir(`linux-${process.arch}`), 'package', 'bin', 'node')
const onLinux = (file: string) => process.platform === 'linux' && existsSync(file)

const probeOn = ['doctor', NODE, '-n', NS]
const probeOff = [...probeOn, '--no-probe']
const args = probeOn
const variants = [
  { label: `bin/chainnode --no-probe (npm package)`, command: [cli, ...probeOff], env },
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
  ...(onLinux(released)
    ? [
        { label: 'release executable (what krew installs)', command: [released, ...args], env },
        { label: 'release executable --no-probe', command: [released, ...probeOff], env },
      ]
    : []),
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
console.log(`manual procedure (${MANUAL.length} kubectl commands, a port-forward and curl /status, /net_info): median ${median(manualTimes).toFixed(0)} ms`)
for (const { label, times } of variants) {
  console.log(
    `doctor ${NODE} (chain probe ${label.includes('--no-probe') ? 'off' : 'on'}), ${label}: median ${median(times).toFixed(0)} ms, ratio to manual ${(median(times) / median(manualTimes)).toFixed(2)} (target 0.25 or less)`,
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
