#!/usr/bin/env node
// Start-up of the CLI against kubectl in the same run: alternate the two, report medians and their ratio.
// Usage: node bench/startup.mjs [runs]   (default 15 each)
import { execFileSync, spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const runs = Number(process.argv[2] ?? 15)
const root = path.resolve(import.meta.dirname, '..')
const kubectl = process.env.KUBECTL ?? 'kubectl'
const cases = [
  { name: 'kubectl version --client', cmd: kubectl, args: ['version', '--client'] },
  { name: 'kubectl-chainnode --version', cmd: path.join(root, 'bin', 'kubectl-chainnode'), args: ['--version'] },
  { name: 'kubectl-chainnode --help', cmd: path.join(root, 'bin', 'kubectl-chainnode'), args: ['--help'] },
]
const bundle = path.join(root, 'examples', 'bundles', 'healthy.tgz')
cases.push({ name: 'doctor --bundle healthy.tgz', cmd: path.join(root, 'bin', 'kubectl-chainnode'), args: ['doctor', '--bundle', bundle] })
// The same run through oclif: the quick start hands a line ending in `--` to oclif (src/entry/parse-argv.ts), whose output is the same.
cases.push({ name: 'doctor --bundle via oclif', cmd: path.join(root, 'bin', 'kubectl-chainnode'), args: ['doctor', '--bundle', bundle, '--'] })
// The unbundled build for comparison: tsc's dist/entry/command-index.js (a module graph, not one bundle), with its own manifest.
const unbundled = mkdtempSync(path.join(tmpdir(), 'chainnode-unbundled-'))
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
writeFileSync(
  path.join(unbundled, 'package.json'),
  JSON.stringify({ ...pkg, oclif: { ...pkg.oclif, commands: { ...pkg.oclif.commands, target: './dist/entry/command-index.js' } } }),
)
for (const entry of ['dist', 'node_modules', 'docs']) symlinkSync(path.join(root, entry), path.join(unbundled, entry))
mkdirSync(path.join(unbundled, 'bin'))
for (const file of ['run.js', 'package.json']) copyFileSync(path.join(root, 'bin', file), path.join(unbundled, 'bin', file))
execFileSync(path.join(root, 'node_modules', '.bin', 'oclif'), ['manifest'], { cwd: unbundled, stdio: 'ignore' })
cases.push({ name: 'unbundled --help', cmd: process.execPath, args: [path.join(unbundled, 'bin', 'run.js'), '--help'] })
cases.push({ name: 'unbundled doctor --bundle', cmd: process.execPath, args: [path.join(unbundled, 'bin', 'run.js'), 'doctor', '--bundle', bundle] })
// Single-file executables from `npm run release`, with and without the V8 code cache.
for (const [label, dir] of [
  ['sea', 'linux-x64'],
  ['sea-nocache', 'linux-x64-nocache'],
]) {
  const exe = path.join(root, 'release', dir, 'kubectl-chainnode')
  if (!existsSync(exe)) continue
  cases.push({ name: `${label} --version`, cmd: exe, args: ['--version'] })
  cases.push({ name: `${label} --help`, cmd: exe, args: ['--help'] })
  cases.push({ name: `${label} doctor --bundle`, cmd: exe, args: ['doctor', '--bundle', bundle] })
}

const time = ({ cmd, args, env }) => {
  const start = process.hrtime.bigint()
  const result = spawnSync(cmd, args, { stdio: 'ignore', env: { ...process.env, NO_COLOR: '1', ...env } })
  if (result.error) throw result.error
  return Number(process.hrtime.bigint() - start) / 1e6
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

for (const c of cases) time(c) // warm the file cache
const samples = new Map(cases.map((c) => [c.name, []]))
for (let i = 0; i < runs; i++) for (const c of cases) samples.get(c.name).push(time(c))
const base = median(samples.get(cases[0].name))
for (const c of cases) {
  const m = median(samples.get(c.name))
  console.log(`${c.name.padEnd(32)} median ${m.toFixed(1).padStart(7)} ms   ratio to kubectl ${(m / base).toFixed(2)}`)
}
