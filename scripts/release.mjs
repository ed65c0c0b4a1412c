#!/usr/bin/env node
// Release build: single-file executables for linux-x64 and linux-arm64, their archives, and the krew
// manifest plugins/chainnode.yaml. Run after `npm run build` (`npm run release` does both).
//
// The executable is Node's single executable application built from the Node 24 binaries of the npm
// packages node-linux-<arch> (Node 20 cannot run oclif there: no dynamic import in the main script).
// Its main script is the npm package's entry point (dist/bundle/entry.cjs, src/entry/main.ts); beside it,
// lib/ holds the quick start bundles and lib/framework.mjs, an ESM bundle of oclif and every command;
// package.json and oclif.manifest.json beside it are oclif's root.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { build } from 'esbuild'
import * as tar from 'tar'
import { RELEASE_NODE_VERSION as NODE_VERSION, releaseNodeDir } from './release-node.mjs'
import { writeOciImage } from './oci-image.mjs'

const PLATFORMS = [
  { name: 'linux-x64', node: 'linux-x64', krewArch: 'amd64', codeCache: true },
  { name: 'linux-arm64', node: 'linux-arm64', krewArch: 'arm64', codeCache: false },
  // Not shipped: the same x64 executable without the V8 code cache, for bench/startup.mjs (what the cache is worth).
  { name: 'linux-x64-nocache', node: 'linux-x64', codeCache: false, benchOnly: true },
]
const root = path.resolve(import.meta.dirname, '..')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const out = path.join(root, 'release')
const log = (line) => process.stderr.write(`[release] ${line}\n`)

/** The Node binary of an npm package node-linux-<arch>, downloaded once with `npm pack`. */
function nodeBinary(platform) {
  const dir = releaseNodeDir(platform)
  const binary = path.join(dir, 'package', 'bin', 'node')
  if (existsSync(binary)) return binary
  mkdirSync(dir, { recursive: true })
  const file = execFileSync('npm', ['pack', `node-${platform}@${NODE_VERSION}`, '--silent'], { cwd: dir, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()
  execFileSync('tar', ['xzf', file, 'package/bin/node'], { cwd: dir })
  rmSync(path.join(dir, file))
  return binary
}

rmSync(out, { recursive: true, force: true })
const lib = path.join(out, 'lib')
await build({
  entryPoints: { framework: path.join(root, 'src', 'entry', 'framework.ts'), commands: path.join(root, 'src', 'entry', 'command-index.ts') },
  outdir: lib,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
})
const seaPackage = {
  name: pkg.name,
  version: pkg.version,
  type: 'module',
  oclif: { ...pkg.oclif, commands: { strategy: 'explicit', target: './lib/commands.mjs', identifier: 'COMMANDS' }, plugins: [] },
}
// The quick start bundles (built by `npm run build`). Their one package loaded on demand, client-node (for
// port-forwards), becomes lib/client-node.cjs: the executable has no node_modules.
const bundled = path.join(root, 'dist', 'bundle')
for (const file of readdirSync(bundled)) if (/^quick-.*\.cjs$/.test(file)) copyFileSync(path.join(bundled, file), path.join(lib, file))
await build({
  stdin: { contents: "module.exports = require('@kubernetes/client-node')", resolveDir: root, loader: 'js' },
  outfile: path.join(lib, 'client-node.cjs'),
  // Node's own punycode is deprecated and warns on every load: take the package of that name.
  alias: { punycode: createRequire(import.meta.url).resolve('punycode/') },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
})

const host = nodeBinary('linux-x64')
const archives = []
for (const platform of PLATFORMS) {
  const stage = path.join(out, platform.name)
  mkdirSync(stage, { recursive: true })
  cpSync(lib, path.join(stage, 'lib'), { recursive: true })
  cpSync(path.join(root, 'docs'), path.join(stage, 'docs'), { recursive: true })
  copyFileSync(path.join(root, 'oclif.manifest.json'), path.join(stage, 'oclif.manifest.json'))
  copyFileSync(path.join(root, 'deploy', 'rbac.yaml'), path.join(stage, 'rbac.yaml'))
  writeFileSync(path.join(stage, 'package.json'), `${JSON.stringify(seaPackage, null, 2)}\n`)
  writeFileSync(
    path.join(stage, 'kubectl_complete-chainnode'),
    '#!/bin/sh\n# kubectl (1.26+) completes `kubectl chainnode ...` through this file.\nexec "$(dirname "$(readlink -f "$0")")/kubectl-chainnode" __complete "$@"\n',
  )
  chmodSync(path.join(stage, 'kubectl_complete-chainnode'), 0o755)
  // The help texts the entry point prints without oclif, as this executable's oclif (no help plugin) renders them.
  execFileSync(process.execPath, [path.join(root, 'scripts', 'gen-help.mjs'), stage, path.join(stage, 'lib', 'help.json')], { stdio: 'inherit' })
  // The blob is prepared by a Node of the same version; V8's code cache only fits the host's architecture.
  const blob = path.join(out, `${platform.name}.blob`)
  const config = path.join(out, `${platform.name}.sea.json`)
  writeFileSync(
    config,
    JSON.stringify({ main: path.join(bundled, 'entry.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: platform.codeCache }),
  )
  execFileSync(host, ['--experimental-sea-config', config], { stdio: 'ignore' })
  const exe = path.join(stage, 'kubectl-chainnode')
  copyFileSync(nodeBinary(platform.node), exe)
  chmodSync(exe, 0o755)
  execFileSync(
    path.join(root, 'node_modules', '.bin', 'postject'),
    [exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'],
    { stdio: 'ignore' },
  )
  if (platform.benchOnly) continue
  const archive = path.join(out, `kubectl-chainnode-${pkg.version}-${platform.name}.tar.gz`)
  await tar.create({ gzip: true, file: archive, cwd: stage, portable: true, mtime: new Date('2026-01-01T00:00:00Z') }, ['.'])
  const sha256 = createHash('sha256').update(readFileSync(archive)).digest('hex')
  archives.push({ ...platform, archive, sha256 })
  log(`${path.relative(root, archive)} sha256 ${sha256}`)
}

// The container image (serve in the cluster: deploy/serve/), as an OCI image layout; no daemon needed.
const image = await writeOciImage({
  stage: path.join(out, 'linux-x64'),
  out: path.join(out, 'oci'),
  name: 'kubectl-chainnode',
  version: pkg.version,
  source: 'https://github.com/voluzi/kubectl-chainnode',
})
log(
  `${path.relative(root, image.layout)}: OCI image, layer ${(image.layerBytes / 1e6).toFixed(1)} MB (${(image.uncompressedBytes / 1e6).toFixed(1)} MB unpacked)`,
)

// Where the archives are published; krew downloads from there unless given --archive.
const releaseBase = process.env.CHAINNODE_RELEASE_BASE_URL ?? `https://github.com/voluzi/kubectl-chainnode/releases/download/v${pkg.version}`
const manifest = `apiVersion: krew.googlecontainertools.github.com/v1alpha2
kind: Plugin
metadata:
  name: chainnode
spec:
  version: v${pkg.version}
  homepage: https://github.com/voluzi/cosmopilot
  shortDescription: Diagnose blockchain nodes run by the cosmopilot operator
  description: |
    Runs the cosmopilot operator's diagnostic procedure in one pass (status, Events, Pod, logs,
    storage, snapshots, remote signer, leader election, webhooks), matches every known symptom
    and says what is wrong, why and what to do. Also captures node-utils profiles, compares
    config-hashes and writes redacted support bundles.
  caveats: |
    kubectl chainnode only reads: it needs the read-only ClusterRole kubectl-chainnode-reader
    from rbac.yaml (installed next to the plugin; also deploy/rbac.yaml in the repository), and
    the optional kubectl-chainnode-portforward role (pods/portforward create) for
    \`kubectl chainnode pprof\` and the signer probes. It never reads Secrets.
    Shell completion through kubectl: link kubectl_complete-chainnode from the plugin's
    directory into your PATH.
  platforms:
${archives
  .map(
    (a) => `  - selector:
      matchLabels:
        os: linux
        arch: ${a.krewArch}
    uri: ${releaseBase}/${path.basename(a.archive)}
    sha256: ${a.sha256}
    bin: kubectl-chainnode
    files:
    - from: "*"
      to: "."`,
  )
  .join('\n')}
`
mkdirSync(path.join(root, 'plugins'), { recursive: true })
writeFileSync(path.join(root, 'plugins', 'chainnode.yaml'), manifest)
log('plugins/chainnode.yaml written')
