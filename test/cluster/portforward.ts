/**
 * Port-forwarding into pods of the test cluster, served by kwok through the apiserver
 * (`kubectl port-forward pod/P L:6666`, client-node's PortForward).
 *
 *   await forwardPort('ns', 'pod-0', 6666, cluster.pprofPort)
 *
 * Server-side-applies a kwok `PortForward` CR named like the pod (pod port -> 127.0.0.1:targetPort;
 * other ports' rules are kept), then opens real port-forwards through the apiserver until kwok
 * has picked the rule up. Resolves with whether something listened behind the rule.
 */
import { PassThrough, Writable } from 'node:stream'
import { KubeConfig, PortForward } from '@kubernetes/client-node'
import { clusterKube, currentClusterDir, KubeError, readClusterState, sleep, type Kube } from './kube.js'
import { readFileSync } from 'node:fs'

export interface ForwardOptions {
  dir?: string
  kube?: Kube
  /** Target address (default 127.0.0.1; keep it on loopback). */
  address?: string
  /**
   * How to check the forward: 'http' sends `GET / HTTP/1.0` and waits for any answer (default),
   * 'connect' only opens the stream, 'none' does not check at all.
   */
  probe?: 'http' | 'connect' | 'none'
  /** Fail unless something answers behind the rule (default false: a refused dial is a valid "live" rule). */
  requireListening?: boolean
  timeoutMs?: number
}

export interface ForwardResult {
  /** kwok knows the rule. */
  live: boolean
  /** Something answered behind it (undefined when not probed). */
  listening?: boolean
  /** Text kwok wrote on the port-forward error stream, if any. */
  error?: string
  attempts: number
}

interface ForwardRule {
  ports?: number[]
  target?: { port: number; address: string }
  command?: string[]
}

/** A client-node KubeConfig for the admin user of the cluster in `dir`. */
export function adminKubeConfig(dir = currentClusterDir()): KubeConfig {
  const s = readClusterState(dir)
  const kc = new KubeConfig()
  kc.loadFromOptions({
    clusters: [{ name: 'chainnode-test', server: s.server, caData: readFileSync(s.caPath).toString('base64'), skipTLSVerify: false }],
    users: [{ name: 'admin', token: s.adminToken }],
    contexts: [{ name: 'admin', cluster: 'chainnode-test', user: 'admin' }],
    currentContext: 'admin',
  })
  return kc
}

type ProbeOutcome = { kind: 'data' } | { kind: 'error'; text: string } | { kind: 'quiet' }

/** One real port-forward through the apiserver; what came back first. */
export async function probeForward(
  kc: KubeConfig,
  namespace: string,
  pod: string,
  podPort: number,
  mode: 'http' | 'connect',
  waitMs = 1500,
): Promise<ProbeOutcome> {
  const output = new PassThrough()
  const input = new PassThrough()
  let errText = ''
  let settle: (o: ProbeOutcome) => void = () => {}
  const outcome = new Promise<ProbeOutcome>((r) => (settle = r))
  const errStream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      errText += chunk.toString()
      if (errText.trim()) settle({ kind: 'error', text: errText.trim() })
      cb()
    },
  })
  output.on('data', () => settle({ kind: 'data' }))
  const timer = setTimeout(() => settle({ kind: 'quiet' }), waitMs)
  let ws: { close(): void; terminate?: () => void } | undefined
  try {
    const pf = new PortForward(kc, true)
    ws = (await pf.portForward(namespace, pod, [podPort], output, errStream, input)) as unknown as typeof ws
    if (mode === 'http') input.write(`GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n`)
    return await outcome
  } catch (e) {
    return { kind: 'error', text: e instanceof Error ? e.message : String(e) }
  } finally {
    clearTimeout(timer)
    input.end()
    try {
      ws?.close()
    } catch {
      /* closed */
    }
    output.destroy()
  }
}

/** Map pod port `podPort` of `namespace/pod` to 127.0.0.1:`targetPort` and wait until kwok serves it. */
export async function forwardPort(namespace: string, pod: string, podPort: number, targetPort: number, opts: ForwardOptions = {}): Promise<ForwardResult> {
  const dir = opts.dir ?? currentClusterDir()
  const kube = opts.kube ?? clusterKube(dir)
  const ref = { apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'PortForward', metadata: { name: pod, namespace } }
  let existing: ForwardRule[] = []
  try {
    existing = ((await kube.read<{ spec?: { forwards?: ForwardRule[] } }>(ref)).spec?.forwards ?? []) as ForwardRule[]
  } catch (e) {
    if (!(e instanceof KubeError && e.status === 404)) throw e
  }
  const kept = existing.filter((f) => !(f.ports ?? []).includes(podPort))
  const rule: ForwardRule = { ports: [podPort], target: { port: targetPort, address: opts.address ?? '127.0.0.1' } }
  await kube.apply({ ...ref, spec: { forwards: [...kept, rule] } })

  const probe = opts.probe ?? 'http'
  if (probe === 'none') return { live: true, attempts: 0 }
  const podRes = await kube.request('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}`)
  if (podRes.status === 404) return { live: true, attempts: 0 } // nothing to probe through yet

  const kc = adminKubeConfig(dir)
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000)
  let last = ''
  for (let attempt = 1; ; attempt++) {
    const o = await probeForward(kc, namespace, pod, podPort, probe)
    if (o.kind === 'data') return { live: true, listening: true, attempts: attempt }
    if (o.kind === 'quiet') {
      // kwok answers at once when it has no rule ("no forward found"), so silence means the rule
      // is known and a dial to the target did not fail (yet); something may listen that does not speak HTTP.
      if (probe === 'connect' || !opts.requireListening) return { live: true, attempts: attempt }
      last = 'no answer behind the forward'
    } else {
      last = o.text
      // kwok v0.8.0: `forward not found for port 6666 in pod "ns/name"` until its informer has the rule.
      const notYet = /forward not found|no forward found/i.test(o.text)
      if (!notYet && !opts.requireListening) return { live: true, listening: false, error: o.text, attempts: attempt }
    }
    if (Date.now() > deadline) {
      throw new Error(`port-forward ${namespace}/${pod} ${podPort} -> 127.0.0.1:${targetPort} not live after ${attempt} attempts: ${last}`)
    }
    await sleep(200)
  }
}

/** Remove the PortForward CR of a pod. */
export async function clearForwards(namespace: string, pod: string, opts: { dir?: string; kube?: Kube } = {}): Promise<void> {
  const kube = opts.kube ?? clusterKube(opts.dir ?? currentClusterDir())
  await kube.delete({ apiVersion: 'kwok.x-k8s.io/v1alpha1', kind: 'PortForward', metadata: { name: pod, namespace } })
}
