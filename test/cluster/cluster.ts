/**
 * A real, throw-away Kubernetes control plane for kubectl-chainnode's tests:
 * etcd + kube-apiserver (v1.36.3) + kwok, plus pprofd (a node-utils stand-in), all on 127.0.0.1.
 *
 *   const c = await startCluster({ dir: '.cluster' })   // builds the tools first if binDir is not given
 *   ... KUBECONFIG=c.kubeconfigPath kubectl get nodes ...
 *   await c.stop()                                      // or stopCluster('.cluster') from any process
 *
 * Layout of `dir`:
 *   cluster.json        everything another process needs (see ClusterState in kube.ts)
 *   kubeconfig          contexts `admin` (current, system:masters) and `viewer` (no RBAC bindings)
 *   pids/<name>.pid     "<pid>\n<binary>\n" of each detached child (each leads its own process group)
 *   logs/<name>.log     component logs
 *   pki/, tokens.csv, etcd/, kwok-stages.yaml, podlogs/ (see logs.ts)
 *
 * No Docker, no kubelet, no controller-manager, no scheduler: pods need spec.nodeName, namespaces
 * never finish terminating, and there is no garbage collection.
 */
import { spawn, execFile, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, connect } from 'node:net'
import { join, resolve, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import yaml from 'js-yaml'
import { Kube, KubeError, rawRequest, sleep, type ClusterState, type KubeObject } from './kube.js'
import { newEcKey } from './pki.js'
import { COSMOPILOT_CRDS } from './crds/cosmopilot.js'
import { DEPENDENCY_CRDS } from './crds/dependencies.js'

export type { ClusterState } from './kube.js'

const execFileP = promisify(execFile)

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const KWOK_NODE = 'chainnode-kwok'
export const UNMANAGED_NODE = 'chainnode-manual'
export const KWOK_NODE_LABEL = 'chainnode.test/kwok'
/** Pods carrying this label are left alone by kwok's pod-ready stage: their status is set by hand. */
export const MANUAL_STATUS_LABEL = 'chainnode.test/manual-status'
export const K8S_VERSION = 'v1.36.3'

/**
 * A folder of CRD manifests to install instead of the project's own (test/cluster/crds/), from
 * $CHAINNODE_CRDS_DIR: e.g. the operator's helm/cosmopilot/crds, to run the suite against its real schemas.
 */
export function crdsDir(): string | undefined {
  return process.env.CHAINNODE_CRDS_DIR || undefined
}

export interface ClusterHandle {
  dir: string
  kubeconfigPath: string
  server: string
  adminToken: string
  viewerToken: string
  caPath: string
  kwokNode: string
  unmanagedNode: string
  /** pprofd serving net/http/pprof on 127.0.0.1 (target of PortForward rules for pod port 6666). */
  pprofPort: number
  /** pprofd -serve: a plain HTML page on every path ("not a profile"). */
  plainHttpPort: number
  kwokPort: number
  binDir: string
  /** kwok's upstream stage and CRD YAML (copied by scripts/build-tools.sh). */
  kwokManifestsDir: string
  /** Milliseconds per start phase, plus `total`. */
  timings: Record<string, number>
  /** Admin client. */
  kube: Kube
  stop(): Promise<void>
}

export interface StartOptions {
  dir: string
  /** Directory with etcd, kube-apiserver, kwok, kubectl, pprofd; built with scripts/build-tools.sh when omitted. */
  binDir?: string
  /** Progress lines (default: none). */
  log?: (line: string) => void
  /**
   * A folder of CRD manifests to install instead of the project's own (default: crdsDir(), else
   * test/cluster/crds/); an empty folder gives a cluster without cosmopilot.
   */
  crdsDir?: string
}

// ---- tools -----------------------------------------------------------------

/** Run scripts/build-tools.sh (idempotent, cached) and return the bin directory. */
export async function buildTools(opts: { log?: (line: string) => void } = {}): Promise<string> {
  const script = join(REPO_ROOT, 'scripts', 'build-tools.sh')
  return new Promise((resolvePromise, reject) => {
    const child = spawn('bash', [script], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
      if (opts.log) {
        const lines = err.split('\n')
        err = lines.pop() ?? ''
        for (const l of lines) opts.log(l)
      }
    })
    child.on('error', reject)
    child.on('close', (code) => {
      if (opts.log && err) opts.log(err)
      const bin = out.trim().split('\n').pop() ?? ''
      if (code !== 0 || !bin || !existsSync(join(bin, 'kube-apiserver'))) {
        reject(new Error(`scripts/build-tools.sh failed (exit ${code})${opts.log ? '' : `:\n${err}`}`))
      } else {
        resolvePromise(bin)
      }
    })
  })
}

// ---- processes ---------------------------------------------------------------

interface Child {
  name: string
  bin: string
  proc: ChildProcess
  pid: number
  logPath: string
  exit?: string
}

/** Stop order: the reverse of the dependency order (kwok before kube-apiserver before etcd). */
const STOP_ORDER = ['pprofd-plain', 'pprofd', 'kwok', 'kube-apiserver', 'etcd']
const STOP_GRACE_MS: Record<string, number> = { 'kube-apiserver': 15_000, etcd: 10_000 }

function launch(dir: string, name: string, bin: string, args: string[]): Child {
  const logPath = join(dir, 'logs', `${name}.log`)
  const fd = openSync(logPath, 'a')
  writeFileSync(fd, `# ${new Date().toISOString()} ${bin} ${args.join(' ')}\n`)
  let proc: ChildProcess
  try {
    proc = spawn(bin, args, { cwd: dir, detached: true, stdio: ['ignore', fd, fd] })
  } finally {
    closeSync(fd)
  }
  if (proc.pid === undefined) throw new Error(`could not start ${name} (${bin})`)
  const child: Child = { name, bin, proc, pid: proc.pid, logPath }
  proc.on('exit', (code, signal) => (child.exit = signal ? `signal ${signal}` : `exit code ${code}`))
  proc.on('error', (e) => (child.exit = `spawn error: ${e.message}`))
  proc.unref()
  mkdirSync(join(dir, 'pids'), { recursive: true })
  writeFileSync(join(dir, 'pids', `${name}.pid`), `${proc.pid}\n${bin}\n`)
  return child
}

function logTail(path: string, lines = 25): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}

/** Poll until `check` is truthy; fails early when one of `children` exits, and at the deadline. */
async function waitFor<T>(what: string, children: Child[], timeoutMs: number, check: () => Promise<T | undefined | null | false>, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastErr = ''
  for (;;) {
    for (const c of children) {
      if (c.exit) {
        throw new Error(`${c.name} exited (${c.exit}) while waiting for ${what}; ${c.logPath}:\n${logTail(c.logPath)}`)
      }
    }
    try {
      const v = await check()
      if (v) return v
    } catch (e) {
      lastErr = e instanceof Error ? e.message : String(e)
    }
    if (Date.now() > deadline) {
      const logs = children.map((c) => `--- ${c.logPath}\n${logTail(c.logPath)}`).join('\n')
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${lastErr ? ` (last error: ${lastErr})` : ''}\n${logs}`)
    }
    await sleep(intervalMs)
  }
}

async function freePort(exclude: Set<number>): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const port = await new Promise<number>((res, rej) => {
      const srv = createServer()
      srv.on('error', rej)
      srv.listen(0, '127.0.0.1', () => {
        const p = (srv.address() as { port: number }).port
        srv.close(() => res(p))
      })
    })
    if (!exclude.has(port)) {
      exclude.add(port)
      return port
    }
  }
  throw new Error('could not find a free port')
}

function tcpOpen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const s = connect({ host: '127.0.0.1', port })
    s.setTimeout(1000)
    s.once('connect', () => {
      s.destroy()
      res(true)
    })
    s.once('error', () => res(false))
    s.once('timeout', () => {
      s.destroy()
      res(false)
    })
  })
}

/** True if `pid` is alive, not a zombie, and (when given) runs `bin`. */
function pidRuns(pid: number, bin?: string): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3)
    if (state === 'Z' || state === 'X') return false
    if (bin) {
      const argv0 = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]
      if (argv0 !== bin) return false
    }
    return true
  } catch {
    return false
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal)
  } catch {
    try {
      process.kill(pid, signal)
    } catch {
      /* gone */
    }
  }
}

async function stopPid(name: string, pid: number, bin: string | undefined, log?: (l: string) => void): Promise<void> {
  if (!pidRuns(pid, bin)) return
  killGroup(pid, 'SIGTERM')
  const grace = STOP_GRACE_MS[name] ?? 5_000
  const deadline = Date.now() + grace
  while (Date.now() < deadline) {
    if (!pidRuns(pid)) return
    await sleep(50)
  }
  log?.(`${name} (pid ${pid}) still running ${grace}ms after SIGTERM; sending SIGKILL to its process group`)
  killGroup(pid, 'SIGKILL')
  const killDeadline = Date.now() + 5_000
  while (Date.now() < killDeadline) {
    if (!pidRuns(pid)) return
    await sleep(50)
  }
  throw new Error(`${name} (pid ${pid}) survived SIGKILL`)
}

/**
 * Stop every component recorded in `<dir>/pids` (works from any process): kwok, then
 * kube-apiserver, then etcd; SIGTERM to each process group, SIGKILL after a deadline.
 * With `remove`, deletes `dir` afterwards.
 */
export async function stopCluster(dir: string, opts: { remove?: boolean; log?: (l: string) => void } = {}): Promise<void> {
  dir = resolve(dir)
  const pidDir = join(dir, 'pids')
  const entries = existsSync(pidDir) ? readdirSync(pidDir).filter((f) => f.endsWith('.pid')) : []
  const names = entries.map((f) => f.slice(0, -4))
  const order = [...names.filter((n) => !STOP_ORDER.includes(n)), ...STOP_ORDER.filter((n) => names.includes(n))]
  const errors: string[] = []
  for (const name of order) {
    const [pidLine, bin] = readFileSync(join(pidDir, `${name}.pid`), 'utf8').split('\n')
    const pid = Number(pidLine)
    if (!Number.isInteger(pid) || pid <= 1) continue
    try {
      await stopPid(name, pid, bin || undefined, opts.log)
      rmSync(join(pidDir, `${name}.pid`), { force: true })
    } catch (e) {
      errors.push(e instanceof Error ? e.message : String(e))
    }
  }
  if (errors.length) throw new Error(`stopCluster(${dir}): ${errors.join('; ')}`)
  if (opts.remove && existsSync(dir)) {
    assertClusterDir(dir)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Refuse to wipe a directory that does not look like one of ours. */
function assertClusterDir(dir: string): void {
  if (!existsSync(dir)) return
  const entries = readdirSync(dir)
  if (entries.length === 0) return
  if (entries.includes('cluster.json') || entries.includes('pids') || entries.includes('logs')) return
  throw new Error(`${dir} is not empty and does not look like a test cluster directory; refusing to reuse it`)
}

/**
 * Last-resort synchronous cleanup (for process 'exit' handlers): SIGKILL the process group of
 * every component of `dir` that still runs. Prefer stopCluster.
 */
export function killClusterSync(dir: string): string[] {
  const pidDir = join(resolve(dir), 'pids')
  if (!existsSync(pidDir)) return []
  const killed: string[] = []
  for (const f of readdirSync(pidDir).filter((x) => x.endsWith('.pid'))) {
    const [pidLine, bin] = readFileSync(join(pidDir, f), 'utf8').split('\n')
    const pid = Number(pidLine)
    if (Number.isInteger(pid) && pid > 1 && pidRuns(pid, bin || undefined)) {
      killGroup(pid, 'SIGKILL')
      killed.push(f.slice(0, -4))
    }
  }
  return killed
}

/** Names of the components of `dir` that are still running. */
export function runningComponents(dir: string): string[] {
  const pidDir = join(resolve(dir), 'pids')
  if (!existsSync(pidDir)) return []
  return readdirSync(pidDir)
    .filter((f) => f.endsWith('.pid'))
    .filter((f) => {
      const [pid, bin] = readFileSync(join(pidDir, f), 'utf8').split('\n')
      return pidRuns(Number(pid), bin || undefined)
    })
    .map((f) => f.slice(0, -4))
}

// ---- PKI, tokens, kubeconfig ---------------------------------------------------

async function makePki(dir: string): Promise<{ ca: string; cert: string; key: string; sa: string }> {
  const pki = join(dir, 'pki')
  mkdirSync(pki, { recursive: true })
  const p = (f: string) => join(pki, f)
  const ossl = (...args: string[]) => execFileP('openssl', args, { cwd: pki })
  writeFileSync(
    p('apiserver.ext'),
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth',
      'subjectAltName=DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,IP:127.0.0.1,IP:10.96.0.1',
      '',
    ].join('\n'),
  )
  await Promise.all([
    ossl(
      'req',
      '-x509',
      ...newEcKey(p('ca.key')),
      '-out',
      p('ca.crt'),
      '-days',
      '3650',
      '-subj',
      '/CN=chainnode-test-ca',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ),
    ossl('req', ...newEcKey(p('apiserver.key')), '-out', p('apiserver.csr'), '-subj', '/CN=kube-apiserver'),
    ossl('genrsa', '-out', p('sa.key'), '2048'),
  ])
  await ossl(
    'x509',
    '-req',
    '-in',
    p('apiserver.csr'),
    '-CA',
    p('ca.crt'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-out',
    p('apiserver.crt'),
    '-days',
    '3650',
    '-extfile',
    p('apiserver.ext'),
  )
  return { ca: p('ca.crt'), cert: p('apiserver.crt'), key: p('apiserver.key'), sa: p('sa.key') }
}

function kubeconfigYaml(server: string, caPem: string, adminToken: string, viewerToken: string): string {
  const caData = Buffer.from(caPem).toString('base64')
  return yaml.dump({
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name: 'chainnode-test', cluster: { server, 'certificate-authority-data': caData } }],
    users: [
      { name: 'admin', user: { token: adminToken } },
      { name: 'viewer', user: { token: viewerToken } },
    ],
    contexts: [
      { name: 'admin', context: { cluster: 'chainnode-test', user: 'admin', namespace: 'default' } },
      { name: 'viewer', context: { cluster: 'chainnode-test', user: 'viewer', namespace: 'default' } },
    ],
    'current-context': 'admin',
  })
}

// ---- manifests ----------------------------------------------------------------

function loadYamlDocs(path: string): KubeObject[] {
  return yaml.loadAll(readFileSync(path, 'utf8')).filter((d): d is KubeObject => !!d && typeof d === 'object')
}

/** kwok stages: upstream node-initialize, node-heartbeat-with-lease, pod-delete, and a pod-ready
 * variant that skips pods labelled chainnode.test/manual-status. */
export function kwokStagesYaml(kwokManifestsDir: string): string {
  const stage = (p: string) => readFileSync(join(kwokManifestsDir, 'stage', p), 'utf8').trim()
  const podReady = yaml.load(stage('pod/fast/pod-ready.yaml')) as {
    metadata: { name: string }
    spec: { selector: { matchExpressions: Array<{ key: string; operator: string; values?: string[] }> } }
  }
  podReady.metadata.name = 'pod-ready-unless-manual-status'
  podReady.spec.selector.matchExpressions.push({
    key: `.metadata.labels["${MANUAL_STATUS_LABEL}"]`,
    operator: 'DoesNotExist',
  })
  return (
    [
      stage('node/fast/node-initialize.yaml'),
      stage('node/heartbeat-with-lease/node-heartbeat-with-lease.yaml'),
      yaml.dump(podReady, { lineWidth: -1 }).trim(),
      stage('pod/fast/pod-delete.yaml'),
    ].join('\n---\n') + '\n'
  )
}

const KWOK_CRDS = ['logs', 'clusterlogs', 'portforwards', 'clusterportforwards']
/** The project's own model of the operator's API and of the APIs it uses (test/cluster/crds/). */
const PROJECT_CRDS = [...COSMOPILOT_CRDS, ...DEPENDENCY_CRDS]

async function installCrds(kube: Kube, kwokManifestsDir: string, dir = crdsDir()): Promise<string[]> {
  const docs: KubeObject[] = []
  for (const c of KWOK_CRDS) docs.push(...loadYamlDocs(join(kwokManifestsDir, 'crd', `kwok.x-k8s.io_${c}.yaml`)))
  if (dir === undefined) docs.push(...(PROJECT_CRDS as unknown as KubeObject[]))
  else {
    if (!existsSync(dir)) throw new Error(`CRD directory ${dir} not found (unset CHAINNODE_CRDS_DIR to install the project's own CRDs)`)
    for (const f of readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort())
      docs.push(...loadYamlDocs(join(dir, f)))
  }
  const crds = docs.filter((d) => d.kind === 'CustomResourceDefinition')
  // Server-side apply: the ChainNodeSet CRD is too large for client-side apply's annotation.
  await Promise.all(crds.map((crd) => kube.apply(crd)))
  return crds.map((c) => c.metadata.name)
}

async function allEstablished(kube: Kube, names: string[]): Promise<boolean> {
  const list = await kube.get<{ items: Array<{ metadata: { name: string }; status?: { conditions?: Array<{ type: string; status: string }> } }> }>(
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
  )
  const established = new Set(
    list.items.filter((i) => i.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')).map((i) => i.metadata.name),
  )
  return names.every((n) => established.has(n))
}

function nodeObject(name: string, labels: Record<string, string>): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', ...labels } },
    spec: {},
  }
}

/** Status for the node nobody manages: looks healthy and routes logs/port-forward to kwok. */
function unmanagedNodeStatus(kwokPort: number): Record<string, unknown> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z')
  const cond = (type: string, status: string, reason: string, message: string) => ({
    type,
    status,
    reason,
    message,
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  })
  const resources = { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '1Ti' }
  return {
    status: {
      addresses: [
        { type: 'InternalIP', address: '127.0.0.1' },
        { type: 'Hostname', address: UNMANAGED_NODE },
      ],
      daemonEndpoints: { kubeletEndpoint: { Port: kwokPort } },
      capacity: resources,
      allocatable: resources,
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
      ],
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        kubeletVersion: K8S_VERSION,
        kubeProxyVersion: '',
        containerRuntimeVersion: 'containerd://2.1.0',
        kernelVersion: '6.1.0',
        osImage: 'chainnode test (status set by hand)',
        machineID: '',
        systemUUID: '',
        bootID: '',
      },
      phase: 'Running',
    },
  }
}

// ---- start --------------------------------------------------------------------

/** Read the state of a running cluster in `dir` (throws if there is none). */
export function clusterHandle(dir: string): ClusterHandle {
  dir = resolve(dir)
  const s = JSON.parse(readFileSync(join(dir, 'cluster.json'), 'utf8')) as ClusterState
  return handleFromState(s)
}

function handleFromState(s: ClusterState): ClusterHandle {
  return {
    dir: s.dir,
    kubeconfigPath: s.kubeconfigPath,
    server: s.server,
    adminToken: s.adminToken,
    viewerToken: s.viewerToken,
    caPath: s.caPath,
    kwokNode: s.kwokNode,
    unmanagedNode: s.unmanagedNode,
    pprofPort: s.ports.pprof,
    plainHttpPort: s.ports.plainHttp,
    kwokPort: s.ports.kwok,
    binDir: s.binDir,
    kwokManifestsDir: s.kwokManifestsDir,
    timings: s.timings,
    kube: new Kube({ server: s.server, token: s.adminToken, ca: readFileSync(s.caPath) }),
    stop: () => stopCluster(s.dir),
  }
}

/**
 * Start etcd, kube-apiserver, kwok and two pprofd instances in `dir`, install the kwok and
 * cosmopilot CRDs, create the kwok-managed and the unmanaged Node. Resolves once all of it is
 * ready; the children are detached and unref'd (they outlive this process until stopped).
 */
export async function startCluster(opts: StartOptions): Promise<ClusterHandle> {
  const log = opts.log ?? (() => {})
  const dir = resolve(opts.dir)
  const t0 = Date.now()
  const timings: Record<string, number> = {}
  let tPhase = t0
  const phase = (name: string) => {
    const now = Date.now()
    timings[name] = now - tPhase
    tPhase = now
    log(`${name}: ${timings[name]}ms`)
  }

  const running = runningComponents(dir)
  if (running.length) throw new Error(`a cluster is already running in ${dir} (${running.join(', ')}); stop it first`)

  const binDir = resolve(opts.binDir ?? (await buildTools({ log })))
  if (!opts.binDir) phase('tools')
  const bin = (n: string) => {
    const p = join(binDir, n)
    if (!existsSync(p)) throw new Error(`missing ${p}; run scripts/build-tools.sh`)
    return p
  }
  const kwokManifestsDir = join(binDir, '..', 'kwok')
  if (!existsSync(join(kwokManifestsDir, 'stage'))) throw new Error(`missing ${kwokManifestsDir}/stage; run scripts/build-tools.sh`)

  assertClusterDir(dir)
  rmSync(dir, { recursive: true, force: true })
  for (const d of ['logs', 'pids', 'etcd', 'podlogs']) mkdirSync(join(dir, d), { recursive: true })

  const children: Child[] = []
  try {
    const used = new Set<number>()
    const ports = {
      etcd: await freePort(used),
      etcdPeer: await freePort(used),
      apiserver: await freePort(used),
      kwok: await freePort(used),
      pprof: 0,
      plainHttp: 0,
    }

    const pki = await makePki(dir)
    const adminToken = randomBytes(24).toString('hex')
    const viewerToken = randomBytes(24).toString('hex')
    const tokensPath = join(dir, 'tokens.csv')
    writeFileSync(tokensPath, `${adminToken},admin,admin,system:masters\n${viewerToken},viewer,viewer\n`, { mode: 0o600 })
    phase('pki')

    // pprofd first: nothing depends on it and it picks its own port.
    const pprofd = launch(dir, 'pprofd', bin('pprofd'), ['-port', '0', '-port-file', join(dir, 'pprofd.port')])
    const plain = launch(dir, 'pprofd-plain', bin('pprofd'), ['-serve', '-port', '0', '-port-file', join(dir, 'pprofd-plain.port'), '-workers', '0'])
    children.push(pprofd, plain)

    // etcd (a port picked as free can be taken by the time etcd binds it: retry with new ports)
    let etcd!: Child
    let etcdUrl = ''
    for (let attempt = 1; ; attempt++) {
      etcdUrl = `http://127.0.0.1:${ports.etcd}`
      const peerUrl = `http://127.0.0.1:${ports.etcdPeer}`
      etcd = launch(dir, 'etcd', bin('etcd'), [
        `--name=default`,
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=default=${peerUrl}`,
        '--unsafe-no-fsync',
        '--log-level=warn',
      ])
      try {
        await waitFor('etcd /health', [etcd], 30_000, async () => {
          const r = await rawRequest(`${etcdUrl}/health`, { timeoutMs: 2000 })
          return r.status === 200 && /"health":\s*"true"/.test(r.body.toString())
        })
        break
      } catch (e) {
        if (attempt >= 3 || !etcd.exit || !/address already in use/.test(logTail(etcd.logPath))) throw e
        log(`etcd: port conflict, retrying with new ports`)
        ports.etcd = await freePort(used)
        ports.etcdPeer = await freePort(used)
        rmSync(join(dir, 'etcd'), { recursive: true, force: true })
      }
    }
    children.push(etcd)
    phase('etcd')

    // kube-apiserver
    const caPem = readFileSync(pki.ca)
    let apiserver!: Child
    let server = ''
    for (let attempt = 1; ; attempt++) {
      server = `https://127.0.0.1:${ports.apiserver}`
      apiserver = launch(dir, 'kube-apiserver', bin('kube-apiserver'), [
        `--etcd-servers=${etcdUrl}`,
        '--bind-address=127.0.0.1',
        '--advertise-address=127.0.0.1',
        `--secure-port=${ports.apiserver}`,
        `--tls-cert-file=${pki.cert}`,
        `--tls-private-key-file=${pki.key}`,
        `--client-ca-file=${pki.ca}`,
        `--token-auth-file=${tokensPath}`,
        '--authorization-mode=RBAC',
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        `--service-account-key-file=${pki.sa}`,
        `--service-account-signing-key-file=${pki.sa}`,
        '--service-cluster-ip-range=10.96.0.0/24',
        '--disable-admission-plugins=ServiceAccount',
        '--allow-privileged=true',
        '--endpoint-reconciler-type=none',
        '--kubelet-preferred-address-types=InternalIP',
      ])
      try {
        await waitFor('kube-apiserver /readyz', [etcd, apiserver], 60_000, async () => {
          const r = await rawRequest(`${server}/readyz`, { ca: caPem, headers: { Authorization: `Bearer ${adminToken}` }, timeoutMs: 3000 })
          return r.status === 200
        })
        break
      } catch (e) {
        if (attempt >= 3 || !apiserver.exit || !/address already in use/.test(logTail(apiserver.logPath))) throw e
        log(`kube-apiserver: port conflict, retrying with a new port`)
        ports.apiserver = await freePort(used)
      }
    }
    children.push(apiserver)
    phase('apiserver')

    const kubeconfigPath = join(dir, 'kubeconfig')
    writeFileSync(kubeconfigPath, kubeconfigYaml(server, caPem.toString(), adminToken, viewerToken), { mode: 0o600 })
    const kube = new Kube({ server, token: adminToken, ca: caPem })

    const crdNames = await installCrds(kube, kwokManifestsDir, opts.crdsDir)
    await waitFor(`${crdNames.length} CRDs Established`, [apiserver], 30_000, () => allEstablished(kube, crdNames))
    phase('crds')

    // kwok
    const stagesPath = join(dir, 'kwok-stages.yaml')
    writeFileSync(stagesPath, kwokStagesYaml(kwokManifestsDir))
    // Nodes: one managed by kwok, one whose status is written by hand (and stays as written).
    await kube.create(nodeObject(KWOK_NODE, { [KWOK_NODE_LABEL]: 'true' }))
    await kube.create(nodeObject(UNMANAGED_NODE, { 'chainnode.test/unmanaged': 'true' }))
    let kwok!: Child
    for (let attempt = 1; ; attempt++) {
      kwok = launch(dir, 'kwok', bin('kwok'), [
        `--kubeconfig=${kubeconfigPath}`,
        `--config=${stagesPath}`,
        `--manage-nodes-with-label-selector=${KWOK_NODE_LABEL}=true`,
        '--node-ip=127.0.0.1',
        `--node-port=${ports.kwok}`,
        `--server-address=127.0.0.1:${ports.kwok}`,
        '--cidr=10.244.0.0/24',
        '--node-lease-duration-seconds=40',
        '--enable-crds=Logs,ClusterLogs,PortForward,ClusterPortForward',
      ])
      try {
        await waitFor('kwok server port', [kwok, apiserver], 30_000, () => tcpOpen(ports.kwok))
        break
      } catch (e) {
        if (attempt >= 3 || !kwok.exit || !/address already in use/.test(logTail(kwok.logPath))) throw e
        log(`kwok: port conflict, retrying with a new port`)
        ports.kwok = await freePort(used)
      }
    }
    children.push(kwok)
    // The apiserver sends log and port-forward requests for pods on the unmanaged node to
    // InternalIP:kubeletEndpoint.Port, i.e. to kwok, so Logs/PortForward CRs work there too.
    await kube.patchStatus({ apiVersion: 'v1', kind: 'Node', metadata: { name: UNMANAGED_NODE } }, unmanagedNodeStatus(ports.kwok))
    await waitFor(`node ${KWOK_NODE} Ready`, [kwok, apiserver], 30_000, async () => {
      const n = await kube.get<{ status?: { conditions?: Array<{ type: string; status: string }> } }>(`/api/v1/nodes/${KWOK_NODE}`)
      return n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True')
    })
    phase('kwok')

    const readPort = (f: string) => {
      try {
        return Number(readFileSync(join(dir, f), 'utf8').trim()) || 0
      } catch {
        return 0
      }
    }
    ports.pprof = await waitFor('pprofd port', [pprofd], 10_000, async () => readPort('pprofd.port'))
    ports.plainHttp = await waitFor('pprofd-plain port', [plain], 10_000, async () => readPort('pprofd-plain.port'))
    await waitFor('pprofd /debug/pprof/', [pprofd], 10_000, async () => {
      const r = await rawRequest(`http://127.0.0.1:${ports.pprof}/debug/pprof/`, { timeoutMs: 2000 })
      return r.status === 200
    })
    phase('pprofd')

    timings.total = Date.now() - t0
    const state: ClusterState = {
      version: 1,
      dir,
      kubeconfigPath,
      server,
      caPath: pki.ca,
      adminToken,
      viewerToken,
      kwokNode: KWOK_NODE,
      unmanagedNode: UNMANAGED_NODE,
      binDir,
      kwokManifestsDir,
      ports,
      startedAt: new Date().toISOString(),
      timings,
    }
    writeFileSync(join(dir, 'cluster.json'), JSON.stringify(state, null, 2) + '\n', { mode: 0o600 })
    log(`cluster ready in ${timings.total}ms`)
    return handleFromState(state)
  } catch (e) {
    log(`start failed; stopping what was started (logs stay in ${join(dir, 'logs')})`)
    try {
      await stopCluster(dir, { log })
    } catch (stopErr) {
      log(String(stopErr))
    }
    throw e
  }
}

export { KubeError }
