import type { CollectionError, KubeObject } from '../snapshot/types.js'
import { ApiError, type KubeClient } from './kube-client.js'
import { listAccept, listPath, type ListTarget, type NodeNeed } from './targets.js'
import { isKind, type KindViews, type Pod } from '../snapshot/kinds.js'

export type Reader = ReturnType<typeof readerFor>

/** Lists answered from somewhere kept current (WatchedLists, for serve), instead of a request each. */
export interface KeptLists {
  list(path: string): Promise<{ items?: KubeObject[] }>
}

export interface Lists {
  all: Promise<KubeObject[]>
  /**
   * The lists of one kind, to be awaited without waiting for the others: as the view of that kind
   * (snapshot/kinds.ts), which the API server's own schema for the kind already guarantees.
   */
  of<K extends keyof KindViews>(kind: K): Promise<KindViews[K][]>
}

/** Whether some node in a namespace (any node, for cluster-wide lists) has a need; `pods` are that namespace's. */
export type Wanted = (need: NodeNeed, namespace: string | undefined, pods: () => Promise<Pod[]>) => Promise<boolean>

/**
 * Send the list reads of these targets for each namespace now, or once a node is known to need them. Target by
 * target across the namespaces: every namespace's Pods go out first, so what waits for the Pods (the chain probe, the
 * log reads) is not queued behind other namespaces' Events and ConfigMaps when a fleet spans more namespaces than
 * reads go out at once.
 */
export function startLists(read: Reader, targets: ListTarget[], namespaces: (string | undefined)[], wanted: Wanted): Lists {
  const flat = (pending: Promise<KubeObject[]>[]) => Promise.all(pending).then((found) => found.flat())
  // One row per namespace, a list per target: kept in that order, so the objects' order does not depend on the reads'.
  const rows = namespaces.map(() => [] as { kind: string; items: Promise<KubeObject[]> }[])
  // Across many namespaces, a list every node needs is read once for the whole cluster (readerFor's `across`).
  const across = read.across && namespaces.length >= ACROSS_FROM && namespaces.every((ns): ns is string => ns !== undefined)
  for (const target of targets) {
    const need = target.onlyFor
    const shared = across && listedAcross(target) ? read.across!(target, namespaces as string[]) : undefined
    namespaces.forEach((ns, n) => {
      const here = rows[n]
      const pods = () => flat(here.filter((l) => l.kind === 'Pod').map((l) => l.items)).then((items) => items.filter((pod) => isKind(pod, 'Pod')))
      const items = shared
        ? shared.then((byNamespace) => byNamespace.get(ns!) ?? [])
        : need
          ? wanted(need, ns, pods).then((yes) => (yes ? read(target, ns) : []))
          : read(target, ns)
      here.push({ kind: target.kind, items })
    })
  }
  const started = rows.flat()
  const of = (kind: string) => flat(started.filter((l) => l.kind === kind).map((l) => l.items))
  return { all: flat(started.map((l) => l.items)), of: of as Lists['of'] }
}

/**
 * From this many namespaces on, a list that every namespace needs (Pods, Events, ConfigMaps) is read once across the
 * cluster, as `kubectl get -A` does, instead of once per namespace: on the scenario fleet's 24 namespaces, 3 requests
 * instead of 72, and the Pods (which the chain probe waits for) no longer queued among the others. Below it, the
 * namespaces' own lists carry less of what is not ours.
 */
export const ACROSS_FROM = 4

/**
 * A list across the cluster is read up to this much per namespace of the nodes. A cluster the nodes share with other
 * work (thousands of Pods and their Events elsewhere) makes it larger: the read stops there and each namespace is listed
 * on its own, which carries only what is theirs. Generous: a namespace of the scenario fleet holds under 100 kB of them.
 */
const ACROSS_BYTES_PER_NAMESPACE = Number(process.env.KUBECTL_CHAINNODE_TEST_ACROSS_BYTES_PER_NAMESPACE) || 8 * 1024 * 1024
const acrossMaxBytes = (namespaces: number) => ACROSS_BYTES_PER_NAMESPACE * namespaces

/** A list every namespace of a node needs, which is read across the cluster from ACROSS_FROM namespaces on. */
const listedAcross = (target: ListTarget) => !target.onlyFor && target.namespaced

/**
 * The lists across the cluster of these targets, asked for now, before the ChainNodes are known (the last read of the
 * cluster found them in ACROSS_FROM namespaces or more): readerFor's `across` takes their answers. Unused when this
 * read's nodes span fewer; a failure is met there.
 */
export function sendAcross(client: KubeClient, targets: ListTarget[], namespaces: number): Map<string, Promise<{ items?: KubeObject[] }>> {
  const sent = new Map<string, Promise<{ items?: KubeObject[] }>>()
  for (const target of targets.filter(listedAcross)) {
    const list = getList(client, target, undefined, acrossMaxBytes(namespaces))
    list.catch(() => undefined)
    sent.set(listPath(target), list)
  }
  return sent
}

/**
 * One list read: a failure is recorded (a missing optional API is not one) and reads as empty, or as the
 * target's fallback; `prepare` sees each list once it arrives (masking, dropping what no rule reads).
 * With `watched` (serve), a list read in an earlier cycle is answered from its watch.
 */
export function readerFor(
  client: KubeClient,
  errors: CollectionError[],
  prepare: (items: KubeObject[]) => Promise<KubeObject[]>,
  watched?: KeptLists,
  /** Lists across the cluster already asked for, by path (sendAcross): `across` takes their answers. */
  sentEarly?: ReadonlyMap<string, Promise<{ items?: KubeObject[] }>>,
) {
  const read = async (target: ListTarget, namespace?: string): Promise<KubeObject[]> => {
    const path = listPath(target, namespace)
    let list: { items?: KubeObject[] }
    try {
      // Watches carry whole objects: a list of metadata alone is listed as asked.
      list = await (watched && !target.metadataOnly ? watched.list(path) : getList(client, target, namespace))
    } catch (error) {
      if (!(error instanceof ApiError)) throw error
      const missing = target.optional && error.reason === 'not-found'
      if (!missing)
        errors.push({ what: `list ${target.plural}${namespace ? ` in ${namespace}` : ''}`, namespace, reason: error.reason, message: error.message })
      return target.fallback ? read(target.fallback, namespace) : []
    }
    return prepare((list.items ?? []).map(listedAs(target)))
  }
  /**
   * One list of a namespaced kind across the cluster, kept to `namespaces` and split by them (what their own lists
   * would have held, in the same order). A user who may not list across the cluster (a role bound per namespace), or
   * any other failure of that one read, gets the namespaces' own lists as before: their failures are recorded as ever.
   * Lists kept current by watches (serve) stay per namespace: a watch of the whole cluster's Events holds every change.
   */
  const across = async (target: ListTarget, namespaces: string[]): Promise<Map<string, KubeObject[]>> => {
    const perNamespace = async () => new Map(await Promise.all(namespaces.map(async (ns) => [ns, await read(target, ns)] as const)))
    let list: { items?: KubeObject[] }
    try {
      list = await (sentEarly?.get(listPath(target)) ?? getList(client, target, undefined, acrossMaxBytes(namespaces.length)))
    } catch (error) {
      // Refused (a role bound per namespace), too large (a shared cluster), or failed: the namespaces' own lists instead.
      if (!(error instanceof ApiError)) throw error
      return perNamespace()
    }
    const byNamespace = new Map(namespaces.map((ns) => [ns, [] as KubeObject[]]))
    const listed = listedAs(target)
    for (const item of list.items ?? []) byNamespace.get(item.metadata?.namespace ?? '')?.push(listed(item))
    for (const [ns, items] of byNamespace) byNamespace.set(ns, await prepare(items))
    return byNamespace
  }
  return Object.assign(read, { across: watched ? undefined : across })
}

const getList = (client: KubeClient, target: ListTarget, namespace?: string, maxBytes?: number) =>
  client.getJSON<{ items?: KubeObject[] }>(listPath(target, namespace), listAccept(target), maxBytes)

/**
 * An item of a target's list as read: with the apiVersion and kind a list leaves out, without managedFields. An item
 * of a metadata-only list is a PartialObjectMetadata: it is read as the target's kind, without the fields not asked for.
 */
function listedAs(target: ListTarget): (item: KubeObject) => KubeObject {
  const apiVersion = target.group === '/api/v1' ? 'v1' : target.group.replace(/^\/apis\//, '')
  if (target.metadataOnly) return (item) => withoutManagedFields({ ...item, apiVersion, kind: target.kind })
  return (item) => withoutManagedFields({ ...item, apiVersion: item.apiVersion ?? apiVersion, kind: item.kind ?? target.kind })
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration'

/**
 * managedFields say who wrote which field, and kubectl's last-applied annotation repeats the whole
 * object: large, never read by a rule or renderer, and on a fleet of thousands most of what is held.
 */
export function withoutManagedFields<T extends KubeObject>(obj: T): T {
  const annotations = obj.metadata?.annotations
  const lastApplied = annotations !== undefined && LAST_APPLIED in annotations
  if (!('managedFields' in (obj.metadata ?? {})) && !lastApplied) return obj
  const { managedFields: _managedFields, ...metadata } = obj.metadata as KubeObject['metadata'] & { managedFields?: unknown }
  if (lastApplied) {
    const { [LAST_APPLIED]: _lastApplied, ...rest } = annotations
    metadata.annotations = rest
  }
  return { ...obj, metadata }
}
