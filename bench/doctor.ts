/**
 * doctor against the manual kubectl procedure it replaces, and doctor on a fleet.
 *   npx tsx bench/doctor.ts [--runs N] [--fleet 500] [--dir .cluster] [--fleet-only]
 * Uses the cluster in --dir (npm run cluster:up -- --scenarios) or starts a throw-away one.
 * The fleet part seeds three namespaces of --fleet ChainNodes (all healthy, 1 in 20 broken, a chain halt)
 * and prints doctor's time, peak memory and requests on each; --fleet-only skips the single-node part.
 * Prints medians and ratios measured in the same run; never asserts.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { benchCluster } from './cluster.js'
import { refreshLiveness } from '../test/cluster/scenarios/index.js'
import { RELEASE_NODE_VERSION, releaseNodeDir } from '../scripts/release-node.mjs'
import { seedFleet, type FleetKind } from './fleet.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '7' },
    fleet: { type: 'string', default: '500' },
    dir: { type: 'string' },
    'fleet-only': { type: 'boolean' },
    reuse: { type: 'boolean' },
    cli: { type: 'string' },
  },
})
const root = path.resolve(import.meta.dirname, '..')
// --cli: another build of the tool (e.g. main's checkout), to measure before and after on the same fleets.
const cli = values.cli ? path.resolve(values.cli) : path.join(root, 'bin', 'chainnode')

const { ctx, env, stop } = await benchCluster(values.dir)
const wall = (run: () => void) => {
  const start = process.hrtime.bigint()
  run()
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const runs = Number(values.runs)
if (!values['fleet-only']) await singleNode()

const fleet = Number(values.fleet)
const TARGET_MS: Record<FleetKind, number> = { healthy: 3000, broken: 5000, halt: 5000 }
for (const kind of ['healthy', 'broken', 'halt'] as const) {
  const ns = `bench-${kind}-${fleet}`
  const seeding = process.hrtime.bigint()
  // --reuse: the fleets of an earlier run in the same --dir (seeding 5,000 nodes takes minutes).
  if (!values.reuse) await seedFleet(ctx, ns, fleet, kind)
  console.log(`seeded ${ns} in ${(Number(process.hrtime.bigint() - seeding) / 1e9).toFixed(0)} s`)
  // The operator's Lease and heartbeats go stale while seeding: refreshed, so only the fleet's troubles show.
  await refreshLiveness(ctx)
  const times: number[] = []
  const peaks: number[] = []
  const cpu: number[] = []
  let requests = ''
  for (let i = 0; i < Math.max(1, Math.floor(runs / 2)); i++) {
    times.push(
      wall(() => {
        // GNU time: doctor's own peak resident memory (kB) and CPU seconds, on the last line of stderr.
        // The CPU time says what doctor costs when a shared machine's load stretches the wall time.
        const result = spawnSync(
          '/usr/bin/time',
          ['-f', '%M %U %S', cli, 'doctor', '--all', '-n', ns, '--no-probe', '--debug', '-o', 'json', '--fail-on', 'never'],
          {
            env,
            encoding: 'utf8',
            maxBuffer: 1 << 28,
          },
        )
        const lines = result.stderr.trim().split('\n')
        const [peakKb, user, system] = lines.at(-1)!.split(' ').map(Number)
        peaks.push(peakKb / 1024)
        cpu.push(user + system)
        const gets = lines.filter((l) => l.startsWith('debug: GET '))
        const logs = gets.filter((l) => l.includes('/log?'))
        const report = JSON.parse(result.stdout) as { summary: { findings: Record<string, number> }; clusters: { groups?: unknown[] }[] }
        requests =
          `${gets.length} requests (${gets.length - logs.length} list/get, ${logs.length} logs), ` +
          `${report.clusters[0].groups?.length ?? 'no'} finding groups, findings ${JSON.stringify(report.summary.findings)}`
      }),
    )
  }
  console.log(
    `doctor --all on ${fleet} ChainNodes, ${kind}: median ${median(times).toFixed(0)} ms (target < ${TARGET_MS[kind]} ms), ` +
      `CPU ${median(cpu).toFixed(1)} s, peak ${Math.max(...peaks).toFixed(0)} MB (target < 400 MB), load ${loadavg()[0].toFixed(1)} on ${cpus().length} cores, ${requests}`,
  )
}
await stop()

async function singleNode() {
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

  await refreshLiveness(ctx)
  manual()
  for (const variant of variants) variant.run()
  const manualTimes: number[] = []
  // The order turns each round: the run right after the manual procedure meets its port-forward and kubectl
  // processes winding down, and that must not always be the same variant.
  const steps = [() => manualTimes.push(wall(manual)), ...variants.map((variant) => () => variant.times.push(wall(variant.run)))]
  for (let i = 0; i < runs; i++) for (let j = 0; j < steps.length; j++) steps[(i + j) % steps.length]()
  console.log(`manual procedure (${MANUAL.length} kubectl commands, a port-forward and curl /status, /net_info): median ${median(manualTimes).toFixed(0)} ms`)
  for (const { label, times } of variants) {
    console.log(
      `doctor ${NODE} (chain probe ${label.includes('--no-probe') ? 'off' : 'on'}), ${label}: median ${median(times).toFixed(0)} ms, ratio to manual ${(median(times) / median(manualTimes)).toFixed(2)} (target 0.25 or less)`,
    )
  }
  rmSync(chainDir, { recursive: true, force: true })
}
