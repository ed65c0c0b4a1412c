/**
 * Would the shipped executable start faster from a V8 startup snapshot (Node 24 single executables,
 * `useSnapshot`) than from the quick start with its code cache (what `npm run release` ships)?
 *   npm run release && npx tsx bench/sea-snapshot.ts [--runs 15] [--dir .cluster]
 * Builds release/linux-x64-snapshot next to release/linux-x64 (same lib/), then alternates the two on the
 * same command lines and prints medians of wall and CPU time and their ratio; never asserts.
 *
 * What the snapshot needs, found while building it: the snapshot builder may load built-in modules only,
 * and node:http, http2, https, tls and net hold handles V8 cannot serialize, so the network built-ins are
 * loaded on first use (a proxy per module); a dynamic import() does not work from the snapshot's main
 * function, so a fallback to oclif would have to require() lib/main.mjs as a module without top-level await.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { build, type Plugin } from 'esbuild'
import { releaseNodeDir } from '../scripts/release-node.mjs'
import { benchCluster } from './cluster.js'

const { values } = parseArgs({ options: { runs: { type: 'string', default: '15' }, dir: { type: 'string', default: '.cluster' } } })
const root = path.resolve(import.meta.dirname, '..')
const shipped = path.join(root, 'release', 'linux-x64')
if (!existsSync(path.join(shipped, 'kubectl-chainnode'))) throw new Error('run npm run release first: release/linux-x64 is missing')
const node24 = path.join(releaseNodeDir('linux-x64'), 'package', 'bin', 'node')
const work = path.join(tmpdir(), `chainnode-sea-snapshot-${process.pid}`)
mkdirSync(work, { recursive: true })

const NETWORK_BUILTINS = /^(node:)?(http|http2|https|tls|net|dns|zlib|crypto)$/
const keysOf = (name: string) =>
  execFileSync(node24, ['-p', `JSON.stringify(Reflect.ownKeys(require('node:${name}')).filter((k) => typeof k === 'string'))`], { encoding: 'utf8' }).trim()
/** Built-ins with handles load on first use; esbuild's interop only lists their keys, which are known ahead. */
const loadOnFirstUse: Plugin = {
  name: 'load-on-first-use',
  setup(b) {
    b.onResolve({ filter: NETWORK_BUILTINS }, (a) => ({ path: a.path.replace(/^node:/, ''), namespace: 'builtin' }))
    b.onResolve({ filter: /^@kubernetes\/client-node$/ }, () => ({ path: 'client-node', namespace: 'beside-executable' }))
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
      loader: 'js',
      contents: `const KEYS = ${keysOf(a.path)}; let loaded; const load = () => (loaded ??= process.getBuiltinModule('node:${a.path}'));
module.exports = new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => KEYS,
  getOwnPropertyDescriptor: (_, k) => (KEYS.includes(k) ? { configurable: true, enumerable: true, writable: true, value: undefined } : undefined) })`,
    }))
    b.onLoad({ filter: /.*/, namespace: 'beside-executable' }, () => ({
      loader: 'js',
      contents: `const path = require('node:path'); module.exports = require('node:module').createRequire(process.execPath)(path.join(path.dirname(process.execPath), 'lib', 'client-node.cjs'))`,
    }))
  },
}
const entry = `import v8 from 'node:v8'
import { runQuick } from ${JSON.stringify(path.join(root, 'src/cli/quick.ts'))}
v8.startupSnapshot.setDeserializeMainFunction(async () => {
  const argv = process.argv.slice(2)
  const { version } = JSON.parse(process.getBuiltinModule('node:fs').readFileSync(process.getBuiltinModule('node:path').join(process.execPath, '..', 'package.json'), 'utf8'))
  if (!(await runQuick(argv, version))) { process.stderr.write('the bench build serves quick command lines only\\n'); process.exitCode = 2 }
  process.stdout.write('', () => process.stderr.write('', () => process.exit()))
})`
await build({
  stdin: { contents: entry, resolveDir: root, loader: 'ts' },
  outfile: path.join(work, 'snapshot-main.cjs'),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  plugins: [loadOnFirstUse],
  logLevel: 'warning',
})
const variant = path.join(root, 'release', 'linux-x64-snapshot')
rmSync(variant, { recursive: true, force: true })
cpSync(path.join(shipped, 'lib'), path.join(variant, 'lib'), { recursive: true })
copyFileSync(path.join(shipped, 'package.json'), path.join(variant, 'package.json'))
const config = path.join(work, 'sea.json')
writeFileSync(
  config,
  JSON.stringify({ main: path.join(work, 'snapshot-main.cjs'), output: path.join(work, 'sea.blob'), disableExperimentalSEAWarning: true, useSnapshot: true }),
)
execFileSync(node24, ['--experimental-sea-config', config], { stdio: 'ignore' })
const exe = path.join(variant, 'kubectl-chainnode')
copyFileSync(node24, exe)
execFileSync(
  path.join(root, 'node_modules', '.bin', 'postject'),
  [exe, 'NODE_SEA_BLOB', path.join(work, 'sea.blob'), '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
  {
    stdio: 'ignore',
  },
)
rmSync(work, { recursive: true, force: true })

const cluster = await benchCluster(values.dir)
const timing = path.join(tmpdir(), `chainnode-sea-snapshot-time-${process.pid}`)
/** Wall time from here, CPU time (user + system) from GNU time. */
const run = (command: string[]) => {
  const start = process.hrtime.bigint()
  const result = spawnSync('/usr/bin/time', ['-o', timing, '-f', '%U %S', ...command], { env: cluster.env, stdio: 'ignore' })
  if (result.error) throw result.error
  const wall = Number(process.hrtime.bigint() - start) / 1e6
  const [user, system] = readFileSync(timing, 'utf8').trim().split('\n').pop()!.split(' ').map(Number)
  return { wall, cpu: (user + system) * 1000 }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const LINES = [
  ['doctor', '--bundle', path.join(root, 'examples', 'bundles', 'healthy.tgz')],
  ['doctor', 'node-0', '-n', 'sc-healthy-chain'],
  ['status', '--all', '-n', 'sc-healthy-chain'],
  ['events', 'node-0', '-n', 'sc-healthy-chain'],
]
console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`)
for (const line of LINES) {
  const builds = { snapshot: [exe, ...line], 'code cache (shipped)': [path.join(shipped, 'kubectl-chainnode'), ...line] }
  const times = Object.fromEntries(Object.keys(builds).map((name) => [name, [] as { wall: number; cpu: number }[]]))
  for (const command of Object.values(builds)) run(command)
  for (let i = 0; i < Number(values.runs); i++) for (const [name, command] of Object.entries(builds)) times[name].push(run(command))
  const [a, b] = Object.values(times).map((ts) => ({ wall: median(ts.map((t) => t.wall)), cpu: median(ts.map((t) => t.cpu)) }))
  console.log(
    `${line
      .join(' ')
      .replace(root + '/', '')
      .padEnd(
        48,
      )} snapshot ${a.wall.toFixed(0)} ms (cpu ${a.cpu.toFixed(0)})   shipped ${b.wall.toFixed(0)} ms (cpu ${b.cpu.toFixed(0)})   ratio ${(a.wall / b.wall).toFixed(2)} (cpu ${(a.cpu / b.cpu).toFixed(2)})`,
  )
}
rmSync(timing, { force: true })
await cluster.stop()
