/**
 * The real cosmopilot manager (v3.0.0, the operator's own binary built by scripts/build-operator.sh) reconciling in
 * the test cluster, its output served by kwok as the `manager` log of an operator Pod, so the CLI finds it the way
 * it finds a Helm release (chart labels, WORKER_NAME) and reads the manager's own words.
 *
 *   const built = await buildOperatorManager()          // { bin } or { skip: 'why it cannot be built' }
 *   const manager = await startOperatorManager(dir, { bin, kubeconfigPath, namespace, workerName, kwokNode })
 *   ...                                                  // the manager reconciles ChainNodes labelled worker-name
 *   await manager.stop()
 *
 * It runs on this machine as a process (no Pod runs it): webhooks, metrics, health probes and leader election are
 * off by its own flags, and --worker-name limits it to the ChainNodes of one test. Its pid goes to <dir>/pids like
 * the cluster's components, so the cluster's teardown ends it if a test does not.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { spawnStamped } from './comet.js'
import { REPO_ROOT } from './cluster.js'
import { clusterKube, sleep, waitUntil, type Kube, type KubeObject } from './kube.js'
import { serveLogFile } from './logs.js'
import { chartLabels } from './scenarios/lib/operator.js'

export const OPERATOR_VERSION = '3.0.0'
export const OPERATOR_IMAGE_V3 = `ghcr.io/voluzi/cosmopilot:${OPERATOR_VERSION}`

export type BuiltManager = { bin: string; skip?: undefined } | { bin?: undefined; skip: string }

/**
 * Build (or find cached) the manager binary. When it cannot be built, `skip` carries the script's own reason (the
 * Go module proxy's answer, what CHAINNODE_OPERATOR_SOURCE lacks), for a test to skip with.
 */
export function buildOperatorManager(log?: (line: string) => void): Promise<BuiltManager> {
  return new Promise((resolve) => {
    const child = spawn('bash', [join(REPO_ROOT, 'scripts', 'build-operator.sh')], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString()
      if (log) for (const line of d.toString().split('\n').filter(Boolean)) log(line)
    })
    child.on('error', (e) => resolve({ skip: `cannot run scripts/build-operator.sh: ${e.message}` }))
    child.on('close', (code) => {
      const bin = out.trim().split('\n').pop() ?? ''
      if (code === 0 && bin && existsSync(bin)) return resolve({ bin })
      const why =
        err
          .trim()
          .split('\n')
          .pop()
          ?.replace(/^\[build-operator\] /, '') ?? ''
      resolve({ skip: why || `scripts/build-operator.sh exited ${code}` })
    })
  })
}

export interface ManagerOptions {
  bin: string
  kubeconfigPath: string
  /** Namespace of the operator's Deployment and Pod (created). */
  namespace: string
  /** The release name: the Deployment's name and its chart labels. */
  release?: string
  /** --worker-name: the manager reconciles only ChainNodes and sets labelled worker-name=<this>. */
  workerName: string
  /** The kwok-managed node the operator Pod runs on (kwok serves its logs). */
  kwokNode: string
}

export interface RunningManager {
  pid: number
  /** CRI-format log of the process: what kwok serves as the operator Pod's `manager` log. */
  logFile: string
  deployment: KubeObject
  pod: KubeObject
  /** The manager's output so far, without the CRI stamps. */
  output(): string[]
  stop(): Promise<void>
}

/** The manager's flags: the defaults of the chart's Deployment except what needs a Pod (webhooks, probes, metrics). */
export function managerArgs(o: Pick<ManagerOptions, 'workerName' | 'release'>): string[] {
  return [
    `--release-name=${o.release ?? 'cosmopilot'}`,
    '--disable-webhooks',
    '--enable-leader-election=false',
    '--metrics-bind-address=0',
    '--health-probe-bind-address=0',
    `--worker-name=${o.workerName}`,
    '--worker-count=4',
  ]
}

/** The operator's Deployment and Pod as the chart names and labels them, running the manager with `args`. */
function releaseObjects(o: ManagerOptions, args: string[]): { deployment: KubeObject; pod: KubeObject } {
  const release = o.release ?? 'cosmopilot'
  const labels = chartLabels(release)
  const selector = { 'app.kubernetes.io/name': 'cosmopilot', 'app.kubernetes.io/instance': release }
  const podSpec = {
    containers: [{ name: 'manager', image: OPERATOR_IMAGE_V3, command: ['/manager'], args, env: [{ name: 'WORKER_NAME', value: o.workerName }] }],
  }
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: release, namespace: o.namespace, labels },
    spec: { replicas: 1, selector: { matchLabels: selector }, template: { metadata: { labels }, spec: podSpec } },
  }
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${release}-real-manager`, namespace: o.namespace, labels },
    spec: { ...podSpec, nodeName: o.kwokNode },
  }
  return { deployment, pod }
}

/**
 * The PriorityClasses the chart creates for a release (<release>-default, -nodes, -validators); without them the
 * manager cannot create the Pods it names them on.
 */
export async function createPriorityClasses(kube: Kube, release: string): Promise<void> {
  const values = [0, 950, 1050]
  for (const [i, name] of priorityClassNames(release).entries())
    await kube.apply({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name, labels: chartLabels(release) },
      value: values[i],
      globalDefault: false,
    })
}

const priorityClassNames = (release: string) => [`${release}-default`, `${release}-nodes`, `${release}-validators`]

/**
 * Delete every object of `kinds` in a namespace, their finalizers dropped first: without the manager (the
 * resource-cleanup finalizer) or a controller-manager (pvc-protection) nothing else would let them go.
 */
export async function sweepNamespace(kube: Kube, namespace: string, kinds: { apiVersion: string; kind: string }[]): Promise<void> {
  for (const { apiVersion, kind } of kinds) {
    const list = await kube.json<{ items: KubeObject[] }>('GET', await kube.pathFor(apiVersion, kind, namespace))
    await Promise.all(
      list.items.map(async (item) => {
        const ref = { apiVersion, kind, metadata: { name: item.metadata.name, namespace } }
        if ((item.metadata.finalizers as string[] | undefined)?.length) await kube.patch(ref, { metadata: { finalizers: null } })
        await kube.delete(ref, { wait: true })
      }),
    )
  }
}

const stripCri = (line: string) => line.replace(/^\S+ (?:stdout|stderr) [FP] /, '')

/** Start the manager against the cluster and serve its output as the operator Pod's `manager` log. */
export async function startOperatorManager(dir: string, o: ManagerOptions): Promise<RunningManager> {
  const kube = clusterKube(dir)
  const args = managerArgs(o)
  await kube.ensureNamespace(o.namespace)
  const objects = releaseObjects(o, args)
  const deployment = await kube.apply(objects.deployment)
  await kube.patchStatus(deployment, {
    status: {
      observedGeneration: 1,
      replicas: 1,
      updatedReplicas: 1,
      readyReplicas: 1,
      availableReplicas: 1,
      conditions: [{ type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable', message: 'Deployment has minimum availability.' }],
    },
  })
  const pod = await kube.apply(objects.pod)
  await waitUntil(`operator Pod ${o.namespace}/${pod.metadata.name} Running`, 30_000, async () => {
    const current = await kube.read<{ status?: { phase?: string } }>(pod)
    return current.status?.phase === 'Running'
  })

  const logDir = join(dir, 'podlogs', o.namespace, pod.metadata.name, 'manager')
  mkdirSync(logDir, { recursive: true })
  const logFile = join(logDir, 'current.log')
  rmSync(logFile, { force: true })
  const name = `manager-${o.namespace}`
  // `env` sets the kubeconfig for the manager alone (controller-runtime's GetConfigOrDie reads KUBECONFIG).
  const pid = spawnStamped(dir, name, 'env', [`KUBECONFIG=${o.kubeconfigPath}`, o.bin, ...args], logFile)
  const output = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map(stripCri) : [])
  let failed: string | undefined
  await waitUntil(
    'the manager to start its controllers',
    60_000,
    () => {
      failed = output().find((l) => /"level":"error".*"msg":"(unable to|problem running)/.test(l))
      return failed !== undefined || output().some((l) => /Starting workers/.test(l))
    },
    250,
  )
  if (failed) throw new Error(`the cosmopilot manager did not start: ${failed}`)
  await serveLogFile(o.namespace, pod.metadata.name, 'manager', logFile, { dir })

  // Stopped, the release leaves the cluster as it found it: a second operator Deployment, or the release's
  // PriorityClasses, would change what other tests' doctor runs see (their releases, their class prefixes).
  const stop = async () => {
    try {
      process.kill(-pid, 'SIGTERM')
    } catch {
      /* already gone */
    }
    for (let i = 0; i < 50 && alive(pid); i++) await sleep(100)
    if (alive(pid)) process.kill(-pid, 'SIGKILL')
    rmSync(join(dir, 'pids', `${name}.pid`), { force: true })
    await Promise.all([
      kube.delete(deployment, { wait: true }),
      kube.delete(pod, { wait: true }),
      kube.delete({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: pod.metadata.name, namespace: o.namespace } }),
      ...priorityClassNames(o.release ?? 'cosmopilot').map((pcName) =>
        kube.delete({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: pcName } }, { wait: true }),
      ),
    ])
  }
  return { pid, logFile, deployment, pod, output, stop }
}

function alive(pid: number): boolean {
  try {
    process.kill(-pid, 0)
    return true
  } catch {
    return false
  }
}
