/**
 * Every-day commands against their kubectl equivalents, in one run on the test cluster.
 *   npx tsx bench/commands.ts [--runs N] [--dir .cluster] [--only status,events] [--release-only]
 * Needs a running cluster with scenarios (npm run cluster:up -- --scenarios). Alternates each pair,
 * prints medians and their ratio (target 1.5 or less; the release executable's status and events 1.2, issue 45); never asserts.
 * Under the release executable's status and events, its floors (bench/release-floor.ts): an empty executable of the same
 * Node, and one that sends the command's own requests and parses the answers with nothing of ours.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { readClusterState } from '../test/cluster/kube.js'
import { buildReleaseFloors, floorEnv, requestsOf } from './release-floor.js'

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '9' },
    dir: { type: 'string', default: '.cluster' },
    only: { type: 'string' },
    'release-only': { type: 'boolean', default: false },
  },
})
const root = path.resolve(import.meta.dirname, '..')
const state = readClusterState(path.resolve(values.dir))
const env: NodeJS.ProcessEnv = {
  ...process.env,
  KUBECONFIG: state.kubeconfigPath,
  NO_COLOR: '1',
  KUBECTL_CHAINNODE_STATE_DIR: path.join(path.resolve(values.dir), 'bench-state'),
}
const kubectl = process.env.KUBECTL ?? 'kubectl'
const [NODE, NS] = ['node-0', 'sc-healthy-chain']

/** kubectlPath: the one list kubectl reads (its -v=6 lines; discovery comes from its cache). */
const ALL_PAIRS: { name: string; ours: string[]; theirs: string[]; metadataOnly?: string[]; kubectlPath?: string }[] = [
  // status reads the ConfigMaps' metadata only (src/commands/status.ts): its floor asks for the same.
  {
    name: 'status',
    ours: ['status', '--all', '-n', NS],
    theirs: ['get', 'chainnode', '-n', NS, '-o', 'wide'],
    metadataOnly: ['configmaps'],
    kubectlPath: `/apis/cosmopilot.voluzi.com/v1/namespaces/${NS}/chainnodes?limit=500`,
  },
  { name: 'events', ours: ['events', NODE, '-n', NS], theirs: ['get', 'events', '-n', NS], kubectlPath: `/api/v1/namespaces/${NS}/events?limit=500` },
  { name: 'describe', ours: ['describe', NODE, '-n', NS], theirs: ['describe', 'chainnode', NODE, '-n', NS] },
  { name: 'logs', ours: ['logs', NODE, '-n', NS], theirs: ['logs', NODE, '-c', 'app', '-n', NS] },
  { name: '--help', ours: ['--help'], theirs: ['--help'] },
]
const PAIRS = ALL_PAIRS.filter((pair) => !values.only || values.only.split(',').includes(pair.name))
// The npm package (Node of this machine) and, when `npm run release` has built it, the single executable.
const released = path.join(root, 'release', `linux-${process.arch}`, 'kubectl-chainnode')
// Node 20 reads the NODE_EXTRA_CA_CERTS bundle while it starts (~50 ms here), before any code of ours; the
// commands trust the kubeconfig's CA, and kubectl never reads it: the npm package is measured without it too.
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...envWithoutExtraCa } = env
const npm = [process.execPath, path.join(root, 'bin', 'run.js')]
const builds = [
  ...(values['release-only']
    ? []
    : [
        { label: `npm package (Node ${process.versions.node})`, command: npm, env },
        ...(extraCaCerts ? [{ label: `npm package without NODE_EXTRA_CA_CERTS (set here: ${extraCaCerts})`, command: npm, env: envWithoutExtraCa }] : []),
      ]),
  ...(process.platform === 'linux' && existsSync(released)
    ? [
        { label: 'release executable', command: [released], env },
        // Node 24 reads that bundle when the first TLS context is made, even one given the kubeconfig's own CA.
        ...(extraCaCerts
          ? [{ label: `release executable without NODE_EXTRA_CA_CERTS (set here: ${extraCaCerts})`, command: [released], env: envWithoutExtraCa }]
          : []),
      ]
    : []),
]

const wall = (command: string[], runEnv = env) => {
  const start = process.hrtime.bigint()
  const result = spawnSync(command[0], command.slice(1), { env: runEnv, stdio: 'ignore' })
  if (result.error) throw result.error
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const runs = Number(values.runs)
/** Medians of ours and theirs, run alternately after one warm-up each. */
function alternate(ours: string[], oursEnv: NodeJS.ProcessEnv, theirs: string[]): [number, number] {
  wall(ours, oursEnv)
  wall(theirs)
  const times = { ours: [] as number[], theirs: [] as number[] }
  for (let i = 0; i < runs; i++) {
    times.ours.push(wall(ours, oursEnv))
    times.theirs.push(wall(theirs))
  }
  return [median(times.ours), median(times.theirs)]
}
const row = (label: string, a: number, theirs: string[], b: number, verdict: string) =>
  console.log(
    `  ${label.padEnd(44)} ${a.toFixed(0).padStart(5)} ms   kubectl ${theirs.join(' ').padEnd(40)} ${b.toFixed(0).padStart(5)} ms   ratio ${(a / b).toFixed(2)}${verdict}`,
  )

// The floor under an npm row: Node's start and its first TLS context, before any code of ours runs.
const floor = [process.execPath, path.join(root, 'bench', 'tls-floor.cjs')]
const floorDir = mkdtempSync(path.join(tmpdir(), 'release-floor-'))
const releaseFloors = builds.some((build) => build.command[0] === released) ? buildReleaseFloors(floorDir) : undefined
for (const build of builds) {
  console.log(build.label)
  if (build.command === npm) {
    const [a, b] = alternate(floor, build.env, [kubectl, ...PAIRS[0].theirs])
    row('(floor: node start + first TLS context)', a, PAIRS[0].theirs, b, `, leaves ${(1.5 * b - a).toFixed(0)} ms for a command under 1.5`)
  }
  for (const pair of PAIRS) {
    const [a, b] = alternate([...build.command, ...pair.ours], build.env, [kubectl, ...pair.theirs])
    const target = build.command !== npm && (pair.name === 'status' || pair.name === 'events') ? 1.2 : 1.5
    row(pair.ours.join(' '), a, pair.theirs, b, ` (target ${target} or less), load ${loadavg()[0].toFixed(2)}`)
    if (releaseFloors && build.command[0] === released && pair.kubectlPath) {
      const floorRow = (label: string, command: string[], floorEnv: NodeJS.ProcessEnv) => {
        const [floor, theirs] = alternate(command, floorEnv, [kubectl, ...pair.theirs])
        row(label, floor, pair.theirs, theirs, `, load ${loadavg()[0].toFixed(2)}`)
      }
      floorRow('  (floor: an empty executable, Node 24 start)', [releaseFloors.empty], build.env)
      floorRow("  (floor: start, TLS, kubectl's one GET)", [releaseFloors.floor], floorEnv([pair.kubectlPath], build.env))
      const paths = requestsOf(build.command, pair.ours, build.env)
      floorRow(`  (floor: start, TLS, its ${paths.length} GETs)`, [releaseFloors.floor], floorEnv(paths, build.env, pair.metadataOnly))
    }
  }
}
rmSync(floorDir, { recursive: true, force: true })
