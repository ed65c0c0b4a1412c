/**
 * Container logs for pods of the test cluster, served by kwok through the apiserver
 * (`kubectl logs`, `--previous`, `--tail`, `--timestamps`, client-node's readNamespacedPodLog).
 *
 *   await setLogs('ns', 'pod-0', {
 *     app: { current: ['started', 'height=10'], previous: ['panic: boom'] },
 *     'node-utils': { current: [{ at: new Date(), text: 'time="..." level=info msg="ok"' }] },
 *   })
 *
 * Writes CRI-format files (`<RFC3339Nano> stdout F <line>`) under <clusterDir>/podlogs/ and
 * server-side-applies a kwok `Logs` CR named like the pod, in the pod's namespace. Calling it
 * again replaces the given containers and keeps the rules of the others.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { clusterKube, currentClusterDir, KubeError, waitUntil, type Kube } from './kube.js'

/** A log line: plain text (timestamps are synthesised, one second apart, ending now) or stamped. */
export type LogEntry = string | { at?: Date | string; text: string; stream?: 'stdout' | 'stderr' }

export interface ContainerLogSpec {
  current: LogEntry[]
  /** Log of the previous instance of the container (`kubectl logs --previous`). */
  previous?: LogEntry[]
}

export interface SetLogsOptions {
  /** Cluster directory (default: the current one, see useCluster / $CHAINNODE_CLUSTER_DIR). */
  dir?: string
  kube?: Kube
  /** Wait until the apiserver serves the logs of every given container (default true; skipped if the pod does not exist). */
  wait?: boolean
}

/** Go's time.RFC3339Nano (trailing zeros of the fraction trimmed). */
export function rfc3339Nano(d: Date, extraNanos = 0): string {
  const iso = d.toISOString() // 2026-11-22T12:00:00.123Z
  const ms = iso.slice(20, 23)
  let frac = (ms + String(extraNanos % 1_000_000).padStart(6, '0')).replace(/0+$/, '')
  frac = frac ? `.${frac}` : ''
  return `${iso.slice(0, 19)}${frac}Z`
}

/** Render entries as CRI log lines; lines without a time get `base - (n-1-i) s`. */
export function criLines(entries: LogEntry[], base: Date = new Date()): string {
  const out: string[] = []
  entries.forEach((e, i) => {
    const entry = typeof e === 'string' ? { text: e } : e
    const at = entry.at ?? new Date(base.getTime() - (entries.length - 1 - i) * 1000)
    const ts = typeof at === 'string' ? at : rfc3339Nano(at, i)
    for (const line of entry.text.split('\n')) out.push(`${ts} ${entry.stream ?? 'stdout'} F ${line}`)
  })
  return out.length ? out.join('\n') + '\n' : ''
}

function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.tmp-${process.pid}`
  writeFileSync(tmp, content)
  renameSync(tmp, path)
}

interface LogRule {
  containers?: string[]
  logsFile?: string
  previousLogsFile?: string
  follow?: boolean
}

export async function setLogs(namespace: string, pod: string, containers: Record<string, ContainerLogSpec>, opts: SetLogsOptions = {}): Promise<void> {
  const dir = opts.dir ?? currentClusterDir()
  const kube = opts.kube ?? clusterKube(dir)
  const podDir = join(dir, 'podlogs', namespace, pod)
  const now = new Date()
  const rules: LogRule[] = []
  for (const [container, spec] of Object.entries(containers)) {
    const cdir = join(podDir, container)
    mkdirSync(cdir, { recursive: true })
    const rule: LogRule = { containers: [container], logsFile: join(cdir, 'current.log') }
    writeAtomic(rule.logsFile!, criLines(spec.current, now))
    if (spec.previous) {
      rule.previousLogsFile = join(cdir, 'previous.log')
      // The previous instance ended before the current one started.
      const prevBase = new Date(now.getTime() - (spec.current.length + 5) * 1000)
      writeAtomic(rule.previousLogsFile, criLines(spec.previous, prevBase))
    }
    rules.push(rule)
  }

  const ref = { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: pod, namespace } }
  let existing: LogRule[] = []
  try {
    existing = ((await kube.read<{ spec?: { logs?: LogRule[] } }>(ref)).spec?.logs ?? []) as LogRule[]
  } catch (e) {
    if (!(e instanceof KubeError && e.status === 404)) throw e
  }
  const given = new Set(Object.keys(containers))
  const kept = existing.filter((r) => !(r.containers ?? []).some((c) => given.has(c)))
  await kube.apply({ ...ref, spec: { logs: [...kept, ...rules] } })

  if (opts.wait === false) return
  // kwok picks the rule up through an informer: wait until the apiserver serves every container.
  const podPath = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`
  const podRes = await kube.request('GET', podPath)
  if (podRes.status === 404) return
  for (const container of given) {
    await waitUntil(`logs of ${namespace}/${pod} -c ${container}`, 15_000, async () => {
      const r = await kube.request('GET', `${podPath}/log?container=${encodeURIComponent(container)}&limitBytes=1`, { timeoutMs: 5000 })
      if (r.status === 200) return true
      // Nothing to wait for when the apiserver will never ask kwok: a pod without spec.nodeName,
      // or a container name the pod does not have (the rule is still useful for a later pod).
      if (/does not have a host assigned|is not valid for pod/.test(r.body.toString())) return true
      throw new Error(`${r.status} ${r.body.toString().slice(0, 300)}`)
    })
  }
}

/**
 * Serve an existing CRI-format file (a real process's output, stamped) as a container's log;
 * the other containers' rules are kept.
 */
export async function serveLogFile(namespace: string, pod: string, container: string, file: string, opts: { dir?: string; kube?: Kube } = {}): Promise<void> {
  const kube = opts.kube ?? clusterKube(opts.dir ?? currentClusterDir())
  const ref = { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: pod, namespace } }
  let existing: LogRule[] = []
  try {
    existing = ((await kube.read<{ spec?: { logs?: LogRule[] } }>(ref)).spec?.logs ?? []) as LogRule[]
  } catch (e) {
    if (!(e instanceof KubeError && e.status === 404)) throw e
  }
  const kept = existing.filter((r) => !(r.containers ?? []).includes(container))
  await kube.apply({ ...ref, spec: { logs: [...kept, { containers: [container], logsFile: file }] } })
  const podPath = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`
  // kwok picks the rule up through an informer: wait until the file's own lines are served.
  const first = readFileSync(file, 'utf8').split('\n')[0].split(' F ')[1] ?? ''
  await waitUntil(`log file of ${namespace}/${pod} -c ${container}`, 15_000, async () => {
    const r = await kube.request('GET', `${podPath}/log?container=${encodeURIComponent(container)}&limitBytes=4096`, { timeoutMs: 5000 })
    return r.status === 200 && r.body.toString().includes(first)
  })
}

/** Remove the Logs CR of a pod (files stay until the cluster directory is removed). */
export async function clearLogs(namespace: string, pod: string, opts: { dir?: string; kube?: Kube } = {}): Promise<void> {
  const kube = opts.kube ?? clusterKube(opts.dir ?? currentClusterDir())
  await kube.delete({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'Logs', metadata: { name: pod, namespace } })
}
