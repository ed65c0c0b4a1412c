/**
 * A small, dependency-free Kubernetes REST client for seeding scenarios.
 *
 * Seeding needs a handful of verbs (create-or-replace, status merge patch, get, delete) over
 * many kinds, fast and in parallel. Keeping it here (instead of going through client-node)
 * keeps the scenarios independent from the CLI's own client and from the launcher helpers.
 */
import https from 'node:https'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import yaml from 'js-yaml'

export interface KObject {
  apiVersion: string
  kind: string
  metadata: {
    name: string
    namespace?: string
    uid?: string
    resourceVersion?: string
    labels?: Record<string, string>
    annotations?: Record<string, string>
    ownerReferences?: OwnerRef[]
    [k: string]: unknown
  }
  [k: string]: unknown
}

export interface OwnerRef {
  apiVersion: string
  kind: string
  name: string
  uid: string
  controller?: boolean
  blockOwnerDeletion?: boolean
}

interface KindInfo {
  plural: string
  namespaced: boolean
}

/** Kinds the scenarios create, keyed by `apiVersion/kind`. */
const KINDS: Record<string, KindInfo> = {
  'v1/Namespace': { plural: 'namespaces', namespaced: false },
  'v1/Pod': { plural: 'pods', namespaced: true },
  'v1/Service': { plural: 'services', namespaced: true },
  'v1/ConfigMap': { plural: 'configmaps', namespaced: true },
  'v1/Secret': { plural: 'secrets', namespaced: true },
  'v1/PersistentVolumeClaim': { plural: 'persistentvolumeclaims', namespaced: true },
  'v1/ResourceQuota': { plural: 'resourcequotas', namespaced: true },
  'v1/PersistentVolume': { plural: 'persistentvolumes', namespaced: false },
  'v1/Event': { plural: 'events', namespaced: true },
  'v1/Endpoints': { plural: 'endpoints', namespaced: true },
  'v1/ServiceAccount': { plural: 'serviceaccounts', namespaced: true },
  'events.k8s.io/v1/Event': { plural: 'events', namespaced: true },
  'apps/v1/Deployment': { plural: 'deployments', namespaced: true },
  'apps/v1/ReplicaSet': { plural: 'replicasets', namespaced: true },
  'apps/v1/StatefulSet': { plural: 'statefulsets', namespaced: true },
  'batch/v1/Job': { plural: 'jobs', namespaced: true },
  'coordination.k8s.io/v1/Lease': { plural: 'leases', namespaced: true },
  'discovery.k8s.io/v1/EndpointSlice': { plural: 'endpointslices', namespaced: true },
  'networking.k8s.io/v1/NetworkPolicy': { plural: 'networkpolicies', namespaced: true },
  'storage.k8s.io/v1/StorageClass': { plural: 'storageclasses', namespaced: false },
  'scheduling.k8s.io/v1/PriorityClass': { plural: 'priorityclasses', namespaced: false },
  'rbac.authorization.k8s.io/v1/Role': { plural: 'roles', namespaced: true },
  'rbac.authorization.k8s.io/v1/RoleBinding': { plural: 'rolebindings', namespaced: true },
  'rbac.authorization.k8s.io/v1/ClusterRole': { plural: 'clusterroles', namespaced: false },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { plural: 'clusterrolebindings', namespaced: false },
  'admissionregistration.k8s.io/v1/ValidatingWebhookConfiguration': {
    plural: 'validatingwebhookconfigurations',
    namespaced: false,
  },
  'snapshot.storage.k8s.io/v1/VolumeSnapshot': { plural: 'volumesnapshots', namespaced: true },
  'snapshot.storage.k8s.io/v1/VolumeSnapshotClass': { plural: 'volumesnapshotclasses', namespaced: false },
  'snapshot.storage.k8s.io/v1/VolumeSnapshotContent': { plural: 'volumesnapshotcontents', namespaced: false },
  'cert-manager.io/v1/Certificate': { plural: 'certificates', namespaced: true },
  'cert-manager.io/v1/Issuer': { plural: 'issuers', namespaced: true },
  'cosmopilot.voluzi.com/v1/ChainNode': { plural: 'chainnodes', namespaced: true },
  'cosmopilot.voluzi.com/v1/ChainNodeSet': { plural: 'chainnodesets', namespaced: true },
  'kwok.x-k8s.io/v1alpha1/Logs': { plural: 'logs', namespaced: true },
  'kwok.x-k8s.io/v1alpha1/PortForward': { plural: 'portforwards', namespaced: true },
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly what: string,
  ) {
    super(`${what}: HTTP ${status}: ${body.slice(0, 600)}`)
  }
}

export function objectPath(apiVersion: string, kind: string, namespace?: string, name?: string): string {
  const info = KINDS[`${apiVersion}/${kind}`]
  if (!info) throw new Error(`scenario api: unknown kind ${apiVersion}/${kind}`)
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`
  let p = base
  if (info.namespaced) {
    if (!namespace) throw new Error(`scenario api: ${kind} ${name ?? ''} needs a namespace`)
    p += `/namespaces/${namespace}`
  }
  p += `/${info.plural}`
  if (name) p += `/${name}`
  return p
}

export function readCa(kubeconfigPath: string, server: string): Buffer | undefined {
  try {
    const doc = yaml.load(readFileSync(kubeconfigPath, 'utf8')) as {
      clusters?: { cluster?: Record<string, unknown> }[]
    }
    const clusters = (doc?.clusters ?? []).map((c) => c.cluster ?? {})
    const cl = clusters.find((c) => c.server === server) ?? clusters[0]
    if (!cl) return undefined
    const data = cl['certificate-authority-data']
    if (typeof data === 'string') return Buffer.from(data, 'base64')
    const file = cl['certificate-authority']
    if (typeof file === 'string') return readFileSync(path.resolve(path.dirname(kubeconfigPath), file))
  } catch {
    // fall through: insecure
  }
  return undefined
}

export interface ApiOptions {
  kubeconfigPath: string
  server: string
  adminToken: string
}

export class Api {
  private readonly agent: https.Agent
  private readonly base: URL

  constructor(opts: ApiOptions) {
    const ca = readCa(opts.kubeconfigPath, opts.server)
    this.agent = new https.Agent({
      keepAlive: true,
      maxSockets: 48,
      ca,
      rejectUnauthorized: ca !== undefined,
    })
    this.base = new URL(opts.server)
    this.token = opts.adminToken
  }

  private readonly token: string

  close(): void {
    this.agent.destroy()
  }

  request<T = unknown>(method: string, p: string, body?: unknown, contentType = 'application/json'): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
    return new Promise((resolve, reject) => {
      const req = https.request(
        {
          agent: this.agent,
          host: this.base.hostname,
          port: this.base.port || 443,
          method,
          path: p,
          headers: {
            authorization: `Bearer ${this.token}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': contentType, 'content-length': payload.length } : {}),
          },
          timeout: 30_000,
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8')
            const status = res.statusCode ?? 0
            if (status >= 400) {
              reject(new ApiError(status, text, `${method} ${p}`))
              return
            }
            let parsed: unknown = text
            try {
              parsed = text ? JSON.parse(text) : undefined
            } catch {
              // keep text
            }
            resolve({ status, body: parsed as T })
          })
          res.on('error', reject)
        },
      )
      req.on('timeout', () => req.destroy(new Error(`${method} ${p}: timeout`)))
      req.on('error', reject)
      if (payload) req.write(payload)
      req.end()
    })
  }

  async get<T extends KObject>(apiVersion: string, kind: string, namespace: string | undefined, name: string) {
    return (await this.request<T>('GET', objectPath(apiVersion, kind, namespace, name))).body
  }

  async tryGet<T extends KObject>(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<T | undefined> {
    try {
      return await this.get<T>(apiVersion, kind, namespace, name)
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return undefined
      throw e
    }
  }

  /** Create; when the object already exists, replace it (so a re-seed is idempotent). */
  async upsert<T extends KObject>(obj: T): Promise<T> {
    const { apiVersion, kind } = obj
    const ns = obj.metadata.namespace
    try {
      return (await this.request<T>('POST', objectPath(apiVersion, kind, ns), obj)).body
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 409) throw e
      return this.replace(obj)
    }
  }

  /**
   * Replace an object that exists. Another writer (the operator Lease's renewer, keepLeaderRenewing) may update it
   * between our read and our write: the server refuses that write (409), and we read it again and write once more.
   */
  private async replace<T extends KObject>(obj: T, attempts = 5): Promise<T> {
    const { apiVersion, kind } = obj
    const ns = obj.metadata.namespace
    const cur = await this.get<T>(apiVersion, kind, ns, obj.metadata.name)
    const next = { ...obj, metadata: { ...obj.metadata, resourceVersion: cur.metadata.resourceVersion } }
    try {
      return (await this.request<T>('PUT', objectPath(apiVersion, kind, ns, obj.metadata.name), next)).body
    } catch (e) {
      // Immutable fields (Job templates, StorageClass binding modes, ...): keep what is there.
      if (e instanceof ApiError && e.status === 422) return cur
      if (e instanceof ApiError && e.status === 409 && attempts > 1) return this.replace(obj, attempts - 1)
      throw e
    }
  }

  /** JSON merge patch of the status subresource. */
  async patchStatus<T extends KObject>(obj: KObject, status: unknown): Promise<T> {
    const p = objectPath(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name) + '/status'
    return (await this.request<T>('PATCH', p, { status }, 'application/merge-patch+json')).body
  }

  /** JSON merge patch of the object itself. */
  async patch<T extends KObject>(obj: KObject, patch: unknown): Promise<T> {
    const p = objectPath(obj.apiVersion, obj.kind, obj.metadata.namespace, obj.metadata.name)
    return (await this.request<T>('PATCH', p, patch, 'application/merge-patch+json')).body
  }

  async delete(apiVersion: string, kind: string, namespace: string | undefined, name: string): Promise<void> {
    try {
      await this.request('DELETE', objectPath(apiVersion, kind, namespace, name))
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) return
      throw e
    }
  }
}

export function ownerRef(o: KObject, controller = true): OwnerRef {
  if (!o.metadata.uid) throw new Error(`ownerRef: ${o.kind}/${o.metadata.name} has no uid (not created yet?)`)
  return {
    apiVersion: o.apiVersion,
    kind: o.kind,
    name: o.metadata.name,
    uid: o.metadata.uid,
    ...(controller ? { controller: true, blockOwnerDeletion: true } : {}),
  }
}
