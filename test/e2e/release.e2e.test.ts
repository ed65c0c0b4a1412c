import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { gunzipSync } from 'node:zlib'
import { extract, list } from 'tar'
import { dump, load } from 'js-yaml'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'
import { releaseNodeDir } from '../../scripts/release-node.mjs'

/** chroot found on this process's PATH: the image's own environment (PATH=/app) has none. */
const CHROOT = spawnSync('sh', ['-c', 'command -v chroot'], { encoding: 'utf8' }).stdout.trim() || '/usr/sbin/chroot'

const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))
const release = path.join(ROOT, 'release')
const archive = (platform: string) => path.join(release, `kubectl-chainnode-${pkg.version}-${platform}.tar.gz`)
const example = path.join(ROOT, 'examples', 'bundles', 'image-pull.tgz')
const work = mkdtempSync(path.join(tmpdir(), 'release-e2e-'))
/** A PATH with kubectl and krew (as the kubectl-krew plugin) but no node. */
const toolsPath = path.join(work, 'tools')

function run(command: string, args: string[], env: Record<string, string> = {}) {
  return spawnSync(command, args, { encoding: 'utf8', env: { HOME: work, NO_COLOR: '1', ...env } })
}

describe('release build: single-file executables, archives, krew', () => {
  beforeAll(() => {
    // Builds both executables from the Node 24 binaries of the npm registry (cached after the first run).
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'release.mjs')], { cwd: ROOT, encoding: 'utf8' })
    if (built.status !== 0) throw new Error(`release build failed: ${built.stderr}`)
    mkdirSync(toolsPath)
    copyFileSync(path.join(inject('binDir'), 'kubectl'), path.join(toolsPath, 'kubectl'))
    symlinkSync(path.join(inject('binDir'), 'krew'), path.join(toolsPath, 'kubectl-krew'))
    expect(spawnSync('sh', ['-c', 'command -v node'], { env: { PATH: `${toolsPath}:/usr/sbin:/sbin` } }).status).not.toBe(0)
  }, 600_000)

  it('produces one archive per platform, the arm64 one holding an aarch64 executable, and a manifest with their sha256', () => {
    const manifest = load(readFileSync(path.join(ROOT, 'plugins', 'chainnode.yaml'), 'utf8')) as {
      apiVersion: string
      kind: string
      spec: { version: string; caveats: string; platforms: { selector: { matchLabels: { arch: string } }; uri: string; sha256: string; bin: string }[] }
    }
    expect(manifest).toMatchObject({ apiVersion: 'krew.googlecontainertools.github.com/v1alpha2', kind: 'Plugin', spec: { version: `v${pkg.version}` } })
    expect(manifest.spec.caveats).toMatch(/kubectl-chainnode-reader/)
    expect(manifest.spec.caveats).toMatch(/pods\/portforward/)
    const byArch = Object.fromEntries(manifest.spec.platforms.map((p) => [p.selector.matchLabels.arch, p]))
    expect(Object.keys(byArch).sort()).toEqual(['amd64', 'arm64'])
    for (const [arch, platform] of [
      ['amd64', 'linux-x64'],
      ['arm64', 'linux-arm64'],
    ]) {
      expect(byArch[arch].sha256).toBe(
        createHash('sha256')
          .update(readFileSync(archive(platform)))
          .digest('hex'),
      )
      expect(byArch[arch].bin).toBe('kubectl-chainnode')
      expect(byArch[arch].uri.endsWith(path.basename(archive(platform)))).toBe(true)
    }
    const elf = readFileSync(path.join(release, 'linux-arm64', 'kubectl-chainnode')).subarray(0, 20)
    expect(elf.subarray(0, 4).toString('latin1')).toBe('\x7fELF')
    expect(elf.readUInt16LE(18)).toBe(0xb7) // EM_AARCH64
  })

  it('runs the x64 executable with no node on PATH', () => {
    const exe = path.join(release, 'linux-x64', 'kubectl-chainnode')
    const env = { PATH: `${toolsPath}:/usr/sbin:/sbin` }
    expect(run(exe, ['--version'], env).stdout).toMatch(new RegExp(`^kubectl-chainnode/${pkg.version.replace(/\./g, '\\.')} linux-x64 node-v24\\.`))
    const doctor = run(exe, ['doctor', '--bundle', example], env)
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toMatch(/ERROR\s+image-pull/)
    const bad = run(exe, ['doctor', '--bundle', path.join(work, 'missing.tgz')], env)
    expect(bad.status).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('diagnoses a live node with the executable, probing its signer through a port-forward', () => {
    const exe = path.join(release, 'linux-x64', 'kubectl-chainnode')
    const env = { PATH: `${toolsPath}:/usr/sbin:/sbin`, KUBECONFIG: inject('kubeconfigPath') }
    // The probes load the port-forward client, which the executable carries as lib/client-node.cjs.
    const live = run(exe, ['doctor', 'val-0', '-n', 'sc-signer-discovery-timeout', '--gate-timeout', '2s', '-o', 'json', '--fail-on', 'never'], env)
    expect(live.stderr).toBe('')
    expect(live.status).toBe(0)
    const report = JSON.parse(live.stdout)
    expect(report.clusters[0].findings.map((f: { ruleId: string }) => f.ruleId)).toContain('signer-discovery-timeout')
    expect(report.clusters[0].suppressed.map((f: { ruleId: string }) => f.ruleId)).toContain('signer-unhealthy')
  })

  it('reads status and events with NODE_EXTRA_CA_CERTS set, trusting the kubeconfig CA alone', () => {
    const exe = path.join(release, 'linux-x64', 'kubectl-chainnode')
    const config = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as { clusters: { cluster: Record<string, unknown> }[] }
    const clusterCa = Buffer.from(String(config.clusters[0].cluster['certificate-authority-data']), 'base64').toString('utf8')
    // As many hosts have it: Node 24 then builds its default store on the first context (tls-reuse.ts trustOwnCaFirst).
    const extra = path.join(work, 'extra-ca.pem')
    writeFileSync(extra, clusterCa)
    const env = { PATH: `${toolsPath}:/usr/sbin:/sbin`, KUBECONFIG: inject('kubeconfigPath'), NODE_EXTRA_CA_CERTS: extra }
    for (const args of [
      ['status', '--all', '-n', 'sc-healthy-chain'],
      ['events', 'node-0', '-n', 'sc-healthy-chain'],
    ]) {
      const result = run(exe, args, env)
      expect(result.status, result.stderr).toBe(0)
      expect(result.stdout).toMatch(/(^|[\s/])node-0\s/m)
    }
    // The kubeconfig's CA is the only one trusted: another CA there fails, though the extra file holds the cluster's.
    const otherCa = path.join(work, 'other-ca')
    mkdirSync(otherCa)
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        'ca.key',
        '-out',
        'ca.crt',
        '-days',
        '1',
        '-subj',
        '/CN=other',
      ],
      {
        cwd: otherCa,
        stdio: 'ignore',
      },
    )
    const wrong = structuredClone(config)
    wrong.clusters[0].cluster['certificate-authority-data'] = readFileSync(path.join(otherCa, 'ca.crt')).toString('base64')
    const wrongKubeconfig = path.join(work, 'wrong-ca-kubeconfig')
    writeFileSync(wrongKubeconfig, dump(wrong))
    const refused = run(exe, ['status', '--all', '-n', 'sc-healthy-chain'], { ...env, KUBECONFIG: wrongKubeconfig })
    expect(refused.status).not.toBe(0)
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)
    expect(refused.stderr).toMatch(/certificate|TLS/i)
  })

  it("Node 24: a context without a CA after one that had the kubeconfig's gets Node's default CAs back", () => {
    const node = path.join(releaseNodeDir(`linux-${process.arch}`), 'package', 'bin', 'node')
    const reuse = pathToFileURL(path.join(ROOT, 'dist', 'cluster', 'tls-reuse.js')).href
    const script = `const tls = await import('node:tls')
const { sharedTls } = await import(${JSON.stringify(reuse)})
const before = tls.getCACertificates('default').length
const ca = tls.getCACertificates('extra')[0]
sharedTls('https://127.0.0.1:1', { ca, headers: {}, rejectUnauthorized: true })
const during = tls.getCACertificates('default').length
sharedTls('https://127.0.0.1:2', { headers: {}, rejectUnauthorized: true })
console.log(JSON.stringify({ before, during, after: tls.getCACertificates('default').length }))`
    // Any certificate will do as the extra one: the cluster's.
    const config = load(readFileSync(inject('kubeconfigPath'), 'utf8')) as { clusters: { cluster: Record<string, unknown> }[] }
    const extra = path.join(work, 'extra-ca-node24.pem')
    writeFileSync(extra, Buffer.from(String(config.clusters[0].cluster['certificate-authority-data']), 'base64'))
    const result = spawnSync(node, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { NODE_EXTRA_CA_CERTS: extra } })
    expect(result.stderr).toBe('')
    const counts = JSON.parse(result.stdout) as { before: number; during: number; after: number }
    expect(counts.during).toBe(1)
    expect(counts.after).toBe(counts.before)
    expect(counts.before).toBeGreaterThan(100)
  })

  it('installs with real krew from the manifest and archive, then runs through kubectl', () => {
    const krewRoot = path.join(work, 'krew')
    const env = { PATH: `${toolsPath}:${krewRoot}/bin:/usr/sbin:/sbin`, KREW_ROOT: krewRoot }
    const install = run('kubectl', ['krew', 'install', `--manifest=${path.join(ROOT, 'plugins', 'chainnode.yaml')}`, `--archive=${archive('linux-x64')}`], env)
    expect(install.status, install.stderr).toBe(0)
    expect(install.stderr + install.stdout).toMatch(/Installed plugin: chainnode/)
    expect(run('kubectl', ['chainnode', '--version'], env).stdout).toMatch(/^kubectl-chainnode\//)
    const doctor = run('kubectl', ['chainnode', 'doctor', '--bundle', example, '--fail-on', 'never'], env)
    expect(doctor.status, doctor.stderr).toBe(0)
    expect(doctor.stdout).toMatch(/image-pull/)
  })

  it('refuses a manifest whose sha256 does not match, and a corrupt or missing archive', () => {
    const krewRoot = path.join(work, 'krew-bad')
    const env = { PATH: `${toolsPath}:${krewRoot}/bin:/usr/sbin:/sbin`, KREW_ROOT: krewRoot }
    const wrongSha = path.join(work, 'wrong-sha.yaml')
    writeFileSync(wrongSha, readFileSync(path.join(ROOT, 'plugins', 'chainnode.yaml'), 'utf8').replace(/sha256: [0-9a-f]{64}/g, `sha256: ${'0'.repeat(64)}`))
    const corrupt = path.join(work, 'corrupt.tar.gz')
    writeFileSync(corrupt, readFileSync(archive('linux-x64')).subarray(0, 4096))
    const cases: [string, string[], RegExp][] = [
      ['wrong sha256', [`--manifest=${wrongSha}`, `--archive=${archive('linux-x64')}`], /checksum|sha256/i],
      ['corrupt archive', [`--manifest=${path.join(ROOT, 'plugins', 'chainnode.yaml')}`, `--archive=${corrupt}`], /checksum|sha256|unexpected EOF|gzip/i],
      [
        'missing archive',
        [`--manifest=${path.join(ROOT, 'plugins', 'chainnode.yaml')}`, `--archive=${path.join(work, 'nope.tar.gz')}`],
        /no such file|not found|failed/i,
      ],
    ]
    for (const [name, args, message] of cases) {
      const result = run('kubectl', ['krew', 'install', ...args], env)
      expect(result.status, name).not.toBe(0)
      expect(result.stderr, name).toMatch(message)
    }
  })
})

/**
 * The OCI image `npm run release` writes (scripts/oci-image.mjs), after the build above: its blobs are what the
 * index and manifest say, and its root, unpacked, starts the executable as the non-root user with chroot (no
 * container runtime). Needs root for chroot.
 */
describe.skipIf(process.getuid?.() !== 0)('release build: the OCI image (skipped unless root: chroot needs it)', () => {
  const layout = path.join(release, 'oci', `kubectl-chainnode-${pkg.version}-linux-x64`)
  const readBlob = (digest: string) => readFileSync(path.join(layout, 'blobs', 'sha256', digest.replace(/^sha256:/, '')))
  const sha = (buffer: Buffer) => `sha256:${createHash('sha256').update(buffer).digest('hex')}`
  const rootfs = path.join(work, 'image-root')
  /* eslint-disable @typescript-eslint/no-explicit-any */
  let config: any
  let tmpModeInLayer = 0

  beforeAll(async () => {
    const index = JSON.parse(readFileSync(path.join(layout, 'index.json'), 'utf8'))
    const manifest = JSON.parse(readBlob(index.manifests[0].digest).toString('utf8'))
    for (const described of [index.manifests[0], manifest.config, ...manifest.layers]) {
      const content = readBlob(described.digest)
      expect(sha(content), described.mediaType).toBe(described.digest)
      expect(content.length).toBe(described.size)
    }
    config = JSON.parse(readBlob(manifest.config.digest).toString('utf8'))
    const layer = gunzipSync(readBlob(manifest.layers[0].digest))
    expect(sha(layer)).toBe(config.rootfs.diff_ids[0])
    mkdirSync(rootfs)
    writeFileSync(path.join(work, 'layer.tar'), layer)
    await extract({ file: path.join(work, 'layer.tar'), cwd: rootfs, preserveOwner: true })
    await list({
      file: path.join(work, 'layer.tar'),
      onReadEntry: (entry) => void (entry.path.replace(/^\.?\//, '') === 'tmp/' && (tmpModeInLayer = entry.mode ?? 0)),
    })
  })

  it('names its version and source, runs as the non-root user, and holds only the executable folder, its libraries and /etc, /tmp', () => {
    expect(config.config.Labels).toMatchObject({
      'org.opencontainers.image.version': pkg.version,
      'org.opencontainers.image.source': expect.stringMatching(/^https:\/\//),
    })
    expect(config.config.User).toBe('65532:65532')
    expect(config.config.Entrypoint).toEqual(['/app/kubectl-chainnode'])
    expect(readdirSync(rootfs).sort()).toEqual(expect.arrayContaining(['app', 'etc', 'tmp']))
    expect(readdirSync(rootfs).filter((top) => !['app', 'etc', 'tmp', 'lib', 'lib64', 'usr'].includes(top))).toEqual([])
    // The layer's own mode for /tmp (extraction applies this process's umask to what it writes).
    expect(tmpModeInLayer & 0o7777).toBe(0o1777)
    expect(readFileSync(path.join(rootfs, 'etc', 'passwd'), 'utf8')).toMatch(/^nonroot:x:65532:65532:/m)
  })

  it('starts from its root as user 65532 (chroot): version, and serve answering /healthz until SIGTERM', async () => {
    const asImage = (args: string[]) => ['--userspec=65532:65532', rootfs, '/app/kubectl-chainnode', ...args]
    const env = { PATH: '/app', HOME: '/tmp', KUBECTL_CHAINNODE_STATE_DIR: '/tmp/chainnode', NO_COLOR: '1' }
    const version = spawnSync(CHROOT, asImage(['version', '-o', 'json']), { encoding: 'utf8', env })
    expect(version.status, version.stderr).toBe(0)
    expect(JSON.parse(version.stdout)).toMatchObject({ version: pkg.version })
    // serve against the test cluster, its kubeconfig inside the root as a user would mount it.
    writeFileSync(path.join(rootfs, 'tmp', 'kubeconfig'), readFileSync(inject('kubeconfigPath')))
    const child = spawn(CHROOT, asImage(['serve', 'node-0', '-n', 'sc-healthy-chain', '--listen', '127.0.0.1:0']), {
      env: { ...env, KUBECONFIG: '/tmp/kubeconfig' },
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk
        const match = /serving (http:\/\/127\.0\.0\.1:\d+)\//.exec(stderr)
        if (match) resolve(match[1])
      })
      child.on('exit', (code) => reject(new Error(`serve in the image exited ${code}: ${stderr}`)))
    })
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})
