/**
 * Small Kubernetes REST helpers for the test cluster, over plain https with a bearer token.
 *
 * Kept free of @kubernetes/client-node on purpose: the harness must be able to set the
 * cluster up (CRDs, nodes, status subresources) independently of the code under test.
 *
 *   const kube = await clusterKube()            // admin client of the current test cluster
 *   await kube.apply(obj)                        // server-side apply (any size, CRDs included)
 *   await kube.create(obj)
 *   await kube.patchStatus(obj, {status: {...}}) // merge patch on the status subresource
 *   await kube.delete(obj)                       // pods: gracePeriodSeconds=0 by default
 */
import https from 'node:https'
import http from 'node:http'
import { readFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'

export interface KubeObject {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string; [k: string]: unknown }
  [k: string]: unknown
}

export interface KubeTarget {
  server: string
  token: string
  /** PEM of the CA that signed the apiserver's serving certificate. */
  ca: string | Buffer
}

export interface RawResponse {
  status: number
  headers: http.IncomingHttpHeaders
  body: Buffer
}

export class KubeError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(message)
    this.name = 'KubeError'
  }
  get reason(): string | undefined {
    try {
      return (JSON.parse(this.body) as { reason?: string }).reason
    } catch {
      return undefined
    }
  }
}

export const FIELD_MANAGER = 'chainnode-test'

interface ResourceInfo {
  name: string
  namespaced: boolean
  kind: string
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** Plain HTTP(S) request with a hard timeout. */
export function rawRequest(
  url: string,
  opts: {
    method?: string
    headers?: Record<string, string>
    body?: string | Buffer
    ca?: string | Buffer
    timeoutMs?: number
  } = {},
): Promise<RawResponse> {
  return new Promise((resolvePromise, reject) => {
    const u = new URL(url)
    const mod = u.protocol === 'https:' ? https : http
    const headers: Record<string, string> = { ...opts.headers }
    // An explicit length: a chunked DELETE body confuses the apiserver (it answered the body as a
    // second, malformed request on the keep-alive connection: "400 Bad Request").
    if (opts.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(opts.body))
    const req = mod.request(
      u,
      {
        method: opts.method ?? 'GET',
        headers,
        ca: opts.ca,
        timeout: opts.timeoutMs ?? 15_000,
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`timeout after ${opts.timeoutMs ?? 15_000}ms: ${opts.method ?? 'GET'} ${url}`)))
    req.on('error', reject)
    if (opts.body !== undefined) req.write(opts.body)
    req.end()
  })
}

export class Kube {
  private discovery = new Map<string, ResourceInfo[]>()

  constructor(readonly target: KubeTarget) {}

  /** Raw request against the apiserver; `path` starts with /api or /apis. */
  async request(method: string, path: string, opts: { body?: unknown; contentType?: string; accept?: string; timeoutMs?: number } = {}): Promise<RawResponse> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.target.token}`,
      Accept: opts.accept ?? 'application/json',
    }
    let body: string | Buffer | undefined
    if (opts.body !== undefined) {
      body = typeof opts.body === 'string' || Buffer.isBuffer(opts.body) ? opts.body : JSON.stringify(opts.body)
      headers['Content-Type'] = opts.contentType ?? 'application/json'
    }
    return rawRequest(this.target.server + path, { method, headers, body, ca: this.target.ca, timeoutMs: opts.timeoutMs })
  }

  /** JSON request that throws KubeError on a non-2xx answer. */
  async json<T = unknown>(method: string, path: string, opts: { body?: unknown; contentType?: string; accept?: string; timeoutMs?: number } = {}): Promise<T> {
    const res = await this.request(method, path, opts)
    const text = res.body.toString('utf8')
    if (res.status < 200 || res.status >= 300) {
      let msg = text
      try {
        msg = (JSON.parse(text) as { message?: string }).message ?? text
      } catch {
        /* not JSON */
      }
      throw new KubeError(`${method} ${path}: ${res.status} ${msg}`, res.status, text)
    }
    return (text ? JSON.parse(text) : undefined) as T
  }

  get<T = unknown>(path: string): Promise<T> {
    return this.json<T>('GET', path)
  }

  private async resources(apiVersion: string, refresh: boolean): Promise<ResourceInfo[]> {
    if (!refresh) {
      const hit = this.discovery.get(apiVersion)
      if (hit) return hit
    }
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`
    const list = await this.json<{ resources: ResourceInfo[] }>('GET', base)
    const res = list.resources.filter((r) => !r.name.includes('/'))
    this.discovery.set(apiVersion, res)
    return res
  }

  /** Resource info for apiVersion/kind, refreshing discovery (CRDs appear late) for up to 10s. */
  async resourceFor(apiVersion: string, kind: string): Promise<ResourceInfo> {
    const deadline = Date.now() + 10_000
    let refresh = false
    for (;;) {
      try {
        const r = (await this.resources(apiVersion, refresh)).find((x) => x.kind === kind)
        if (r) return r
      } catch (e) {
        if (!(e instanceof KubeError && e.status === 404)) throw e
      }
      if (Date.now() > deadline) throw new Error(`no resource for ${apiVersion} ${kind} in API discovery`)
      refresh = true
      await sleep(200)
    }
  }

  /** Collection path (no name) or object path for apiVersion/kind in namespace. */
  async pathFor(apiVersion: string, kind: string, namespace?: string, name?: string): Promise<string> {
    const r = await this.resourceFor(apiVersion, kind)
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`
    let p = base
    if (r.namespaced) p += `/namespaces/${encodeURIComponent(namespace ?? 'default')}`
    p += `/${r.name}`
    if (name) p += `/${encodeURIComponent(name)}`
    return p
  }

  objectPath(obj: KubeObject): Promise<string> {
    return this.pathFor(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name)
  }

  async create<T extends KubeObject>(obj: T): Promise<T> {
    const p = await this.pathFor(obj.apiVersion, obj.kind, obj.metadata.namespace)
    return this.json<T>('POST', `${p}?fieldManager=${FIELD_MANAGER}`, { body: obj })
  }

  /** Server-side apply (works for objects too large for client-side apply's annotation). */
  async apply<T extends KubeObject>(obj: T, opts: { force?: boolean; fieldManager?: string } = {}): Promise<T> {
    const p = await this.objectPath(obj)
    const q = `fieldManager=${opts.fieldManager ?? FIELD_MANAGER}&force=${opts.force ?? true}`
    return this.json<T>('PATCH', `${p}?${q}`, { body: obj, contentType: 'application/apply-patch+yaml' })
  }

  /** Server-side apply of the status subresource. */
  async applyStatus<T extends KubeObject>(obj: T, opts: { fieldManager?: string } = {}): Promise<T> {
    const p = await this.objectPath(obj)
    const q = `fieldManager=${opts.fieldManager ?? FIELD_MANAGER}-status&force=true`
    return this.json<T>('PATCH', `${p}/status?${q}`, { body: obj, contentType: 'application/apply-patch+yaml' })
  }

  /** Patch (merge by default) of the object. */
  async patch<T = unknown>(ref: KubeObject, patch: unknown, type: 'merge' | 'strategic' | 'json' = 'merge'): Promise<T> {
    const p = await this.objectPath(ref)
    return this.json<T>('PATCH', p, { body: patch, contentType: patchContentType(type) })
  }

  /** Patch of the status subresource, e.g. patchStatus(pod, {status: {phase: 'Running'}}). */
  async patchStatus<T = unknown>(ref: KubeObject, patch: unknown, type: 'merge' | 'strategic' | 'json' = 'merge'): Promise<T> {
    const p = await this.objectPath(ref)
    return this.json<T>('PATCH', `${p}/status`, { body: patch, contentType: patchContentType(type) })
  }

  async read<T = unknown>(ref: KubeObject): Promise<T> {
    return this.json<T>('GET', await this.objectPath(ref))
  }

  async exists(ref: KubeObject): Promise<boolean> {
    try {
      await this.read(ref)
      return true
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return false
      throw e
    }
  }

  /**
   * Delete; ignores NotFound. Pods default to gracePeriodSeconds=0 (there is no kubelet
   * to finish a graceful deletion on the unmanaged node).
   */
  async delete(ref: KubeObject, opts: { gracePeriodSeconds?: number; wait?: boolean } = {}): Promise<void> {
    const p = await this.objectPath(ref)
    const grace = opts.gracePeriodSeconds ?? (ref.kind === 'Pod' ? 0 : undefined)
    const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }
    if (grace !== undefined) body.gracePeriodSeconds = grace
    try {
      await this.json('DELETE', p, { body })
    } catch (e) {
      if (e instanceof KubeError && e.status === 404) return
      throw e
    }
    if (opts.wait) {
      await waitUntil(`${ref.kind} ${ref.metadata.name} deleted`, 30_000, async () => !(await this.exists(ref)))
    }
  }

  /** Create the namespace if missing (namespaces never finish terminating: no controller-manager). */
  async ensureNamespace(name: string, labels: Record<string, string> = {}): Promise<void> {
    await this.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } })
  }

  /** Create a core/v1 Event about an object. */
  async createEvent(
    involved: KubeObject & { metadata: { uid?: string } },
    ev: {
      reason: string
      message: string
      type?: 'Normal' | 'Warning'
      count?: number
      lastTimestamp?: Date
      firstTimestamp?: Date
      component?: string
      name?: string
    },
  ): Promise<KubeObject> {
    const ns = involved.metadata.namespace ?? 'default'
    const last = ev.lastTimestamp ?? new Date()
    const first = ev.firstTimestamp ?? last
    const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')
    return this.create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: ev.name ?? `${involved.metadata.name}.${Date.now().toString(16)}${Math.floor(Math.random() * 1e6).toString(16)}`,
        namespace: ns,
      },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.metadata.name,
        namespace: ns,
        uid: involved.metadata.uid,
      },
      reason: ev.reason,
      message: ev.message,
      type: ev.type ?? 'Normal',
      count: ev.count ?? 1,
      firstTimestamp: iso(first),
      lastTimestamp: iso(last),
      source: { component: ev.component ?? 'kubelet' },
      reportingComponent: ev.component ?? 'kubelet',
    })
  }
}

function patchContentType(type: 'merge' | 'strategic' | 'json'): string {
  return type === 'merge' ? 'application/merge-patch+json' : type === 'strategic' ? 'application/strategic-merge-patch+json' : 'application/json-patch+json'
}

/** Poll `check` every `intervalMs` until it returns a truthy value or the deadline passes. */
export async function waitUntil<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let lastErr: unknown
  for (;;) {
    try {
      const v = await check()
      if (v) return v
    } catch (e) {
      lastErr = e
    }
    if (Date.now() > deadline) {
      const detail = lastErr instanceof Error ? `: last error: ${lastErr.message}` : ''
      throw new Error(`timed out after ${timeoutMs}ms waiting for ${what}${detail}`)
    }
    await sleep(intervalMs)
  }
}

// ---- the current test cluster ----------------------------------------------

/** What startCluster writes to <dir>/cluster.json (the contract between processes). */
export interface ClusterState {
  version: 1
  dir: string
  kubeconfigPath: string
  server: string
  caPath: string
  adminToken: string
  viewerToken: string
  kwokNode: string
  unmanagedNode: string
  binDir: string
  kwokManifestsDir: string
  ports: { etcd: number; etcdPeer: number; apiserver: number; kwok: number; pprof: number; plainHttp: number }
  startedAt: string
  timings: Record<string, number>
}

let currentDir: string | undefined

/** Select the cluster the helpers act on (default: $CHAINNODE_CLUSTER_DIR, else ./.cluster). */
export function useCluster(dir: string): void {
  currentDir = resolve(dir)
}

export function currentClusterDir(): string {
  return resolve(currentDir ?? process.env.CHAINNODE_CLUSTER_DIR ?? '.cluster')
}

export function readClusterState(dir = currentClusterDir()): ClusterState {
  const p = join(dir, 'cluster.json')
  if (!existsSync(p)) throw new Error(`no test cluster in ${dir} (missing cluster.json); run the cluster first`)
  return JSON.parse(readFileSync(p, 'utf8')) as ClusterState
}

const kubeCache = new Map<string, Kube>()

/** Admin (or viewer) client of the cluster in `dir`. */
export function clusterKube(dir = currentClusterDir(), user: 'admin' | 'viewer' = 'admin'): Kube {
  const state = readClusterState(dir)
  const key = `${dir}|${user}|${state.startedAt}`
  let k = kubeCache.get(key)
  if (!k) {
    k = new Kube({
      server: state.server,
      token: user === 'admin' ? state.adminToken : state.viewerToken,
      ca: readFileSync(state.caPath),
    })
    kubeCache.set(key, k)
  }
  return k
}

// Convenience wrappers over the current cluster's admin client.
export const apply = <T extends KubeObject>(obj: T) => clusterKube().apply(obj)
export const create = <T extends KubeObject>(obj: T) => clusterKube().create(obj)
export const patchStatus = (ref: KubeObject, patch: unknown, type: 'merge' | 'strategic' | 'json' = 'merge') => clusterKube().patchStatus(ref, patch, type)
export const deleteObject = (ref: KubeObject, opts?: { gracePeriodSeconds?: number; wait?: boolean }) => clusterKube().delete(ref, opts)
