import type { KubeObject, LogRecord, Observation, ObjectRef, Snapshot, TableRow } from './types.js'
import {
  type ChainNode,
  type ChainNodeSet,
  type ConfigMap,
  isKind,
  type KindViews,
  type KubeEvent,
  type PersistentVolumeClaim,
  type Pod,
  type StorageClass,
  type VolumeSnapshot,
  type Workload,
} from './kinds.js'
import { compareText } from '../util/compare.js'
import { ownerSetName } from './node-layout.js'
import { sortEventsTimed } from './events.js'
import { selectorMatches, type LabelSelector } from './label-selector.js'
import { operatorWorkerName } from './operator.js'

export const refOf = (obj: KubeObject): ObjectRef => ({ kind: obj.kind, namespace: obj.metadata.namespace, name: obj.metadata.name })
export const keyOf = (kind: string, namespace: string | undefined, name: string) => `${kind}/${namespace ?? ''}/${name}`

/** Read-only lookups over one snapshot; rules and renderers use this instead of walking raw lists. */
const logKey = (namespace: string | undefined, pod: string, container: string, previous: boolean) => `${namespace}/${pod}/${container}/${previous}`

export class SnapshotIndex {
  private readonly byKind = new Map<string, KubeObject[]>()
  private readonly byKey = new Map<string, KubeObject>()
  private readonly eventsByUid = new Map<string, KubeEvent[]>()
  private readonly eventsByName = new Map<string, KubeEvent[]>()
  // Rules ask per node: a fleet of 500 must not scan every Pod and log for each of them.
  private readonly byNamespace = new Map<string, KubeObject[]>()
  private logsByKey?: Map<string, LogRecord>
  private rowsByKey?: Map<string, TableRow>
  // serve's history holds thousands of observations per node of a fleet: a scan per node would be quadratic.
  private observationsByNode?: Map<string, Observation[]>
  private readonly eventsCache = new WeakMap<KubeObject, KubeEvent[]>()
  private readonly eventTimes = new WeakMap<KubeEvent[], number[]>()
  private readonly answers = new Map<string, WeakMap<object, Map<string, unknown>>>()

  /**
   * What the rules, the timeline and status ask again and again of one object of this snapshot, made once: `question`
   * names what is asked, `detail` tells one object's asks apart (a name, a time). Read only, shared by every caller.
   */
  once<T>(question: string, obj: object, detail: string, make: () => T): T {
    let byObject = this.answers.get(question)
    if (!byObject) this.answers.set(question, (byObject = new WeakMap()))
    let byDetail = byObject.get(obj)
    if (!byDetail) byObject.set(obj, (byDetail = new Map()))
    if (byDetail.has(detail)) return byDetail.get(detail) as T
    const answer = make()
    byDetail.set(detail, answer)
    return answer
  }

  constructor(readonly snapshot: Snapshot) {
    for (const obj of snapshot.objects) {
      const list = this.byKind.get(obj.kind) ?? []
      list.push(obj)
      this.byKind.set(obj.kind, list)
      // Events (a bundle can hold 300,000) are keyed and indexed when first asked for: many indexes never are.
      if (obj.kind !== 'Event') this.byKey.set(keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name), obj)
    }
  }

  private eventsIndexed = false

  /** The Events by involved object (uid, and kind/namespace/name) and by their own key, once. */
  private indexEvents(): void {
    if (this.eventsIndexed) return
    this.eventsIndexed = true
    for (const obj of this.byKind.get('Event') ?? []) {
      this.byKey.set(keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name), obj)
      if (isKind(obj, 'Event')) this.indexEvent(obj)
    }
  }

  private indexEvent(event: KubeEvent): void {
    const involved = event.involvedObject ?? event.regarding ?? {}
    if (involved.uid) append(this.eventsByUid, involved.uid, event)
    append(this.eventsByName, keyOf(involved.kind ?? '', involved.namespace ?? event.metadata.namespace, involved.name ?? ''), event)
  }

  /** Objects of a kind, as the view kinds.ts declares for it (the bundle reader checked that shape). */
  list<K extends keyof KindViews>(kind: K, namespace?: string): KindViews[K][]
  list(kind: string, namespace?: string): KubeObject[]
  list(kind: string, namespace?: string): KubeObject[] {
    const all = this.byKind.get(kind) ?? []
    if (namespace === undefined) return all
    const key = `${kind}/${namespace}`
    let inNamespace = this.byNamespace.get(key)
    if (!inNamespace) this.byNamespace.set(key, (inNamespace = all.filter((obj) => obj.metadata.namespace === namespace)))
    return inNamespace
  }

  get<K extends keyof KindViews>(kind: K, namespace: string | undefined, name: string): KindViews[K] | undefined
  get(kind: string, namespace: string | undefined, name: string): KubeObject | undefined
  get(kind: string, namespace: string | undefined, name: string): KubeObject | undefined {
    if (kind === 'Event') this.indexEvents()
    return this.byKey.get(keyOf(kind, namespace, name))
  }

  chainNodes(): ChainNode[] {
    return [...this.list('ChainNode')].sort((a, b) =>
      compareText(keyOf('', a.metadata.namespace, a.metadata.name), keyOf('', b.metadata.namespace, b.metadata.name)),
    )
  }

  tableRow(node: ChainNode): TableRow | undefined {
    // One map, built on first use: a find per node is quadratic over a fleet of 10,000.
    if (!this.rowsByKey) {
      this.rowsByKey = new Map()
      for (const row of this.snapshot.chainNodeRows) {
        const key = keyOf('', row.namespace, row.name)
        if (!this.rowsByKey.has(key)) this.rowsByKey.set(key, row)
      }
    }
    return this.rowsByKey.get(keyOf('', node.metadata.namespace, node.metadata.name))
  }

  /** Earlier observations of this node (history.json, the history store), oldest first: grouped once, not filtered per node. */
  observationsOf(node: ChainNode): Observation[] {
    if (!this.observationsByNode) {
      this.observationsByNode = new Map()
      for (const o of this.snapshot.observations ?? []) append(this.observationsByNode, o.node, o)
    }
    return this.observationsByNode.get(`${node.metadata.namespace}/${node.metadata.name}`) ?? []
  }

  /** The node Pod: same name as the ChainNode and controlled by it (the operator sets no label to find it by). */
  podOf(node: ChainNode): Pod | undefined {
    const pod = this.get('Pod', node.metadata.namespace, node.metadata.name)
    if (!pod) return undefined
    const owners = pod.metadata.ownerReferences ?? []
    const owned = owners.some((ref) => ref.kind === 'ChainNode' && (ref.uid === node.metadata.uid || !node.metadata.uid))
    return owned || owners.length === 0 ? pod : undefined
  }

  /** Events about an object, matched by uid where recorded, else by kind, namespace and name. */
  eventsFor(obj: KubeObject | undefined): KubeEvent[] {
    if (!obj) return []
    // Every rule asks for the Events of the same node and Pod: sorted once per object, not once per rule.
    let events = this.eventsCache.get(obj)
    if (!events) this.eventsCache.set(obj, (events = this.findEvents(obj)))
    return events
  }

  /** The time of each of eventsFor(obj), as its sort parsed it (eventTime; NaN when unreadable): not parsed again. */
  eventTimesFor(obj: KubeObject): number[] {
    return this.eventTimes.get(this.eventsFor(obj))!
  }

  /**
   * Whether one Event can be among the eventsFor of two of these objects. findEvents takes an Event by its object's
   * uid, or by kind/namespace/name where either has no uid: only objects without a uid, or sharing a uid or a name,
   * can share one. Objects that cannot are read with no set of the Events seen (a node can have 200,000).
   */
  mayShareEvents(objects: readonly KubeObject[]): boolean {
    const uids = new Set<string>()
    const keys = new Set<string>()
    for (const obj of objects) {
      const uid = obj.metadata.uid
      const key = keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name)
      if (!uid || uids.has(uid) || keys.has(key)) return true
      uids.add(uid)
      keys.add(key)
    }
    return false
  }

  private findEvents(obj: KubeObject): KubeEvent[] {
    this.indexEvents()
    const uid = obj.metadata.uid
    const byName = this.eventsByName.get(keyOf(obj.kind, obj.metadata.namespace, obj.metadata.name)) ?? []
    // Each Event is in one uid's list and one name's: an object with a uid takes its uid's, and by name only those
    // that name no uid (one naming its uid is in the uid's list already, one naming another is about another object).
    const { events, times } = sortEventsTimed(
      uid ? [...(this.eventsByUid.get(uid) ?? []), ...byName.filter((event) => !(event.involvedObject ?? event.regarding)?.uid)] : [...byName],
    )
    this.eventTimes.set(events, times)
    return events
  }

  logsFor(namespace: string | undefined, pod: string, container: string, previous = false): LogRecord | undefined {
    if (!this.logsByKey) {
      this.logsByKey = new Map()
      // The first record wins, as a search from the start would find it.
      for (const log of [...this.snapshot.logs].reverse()) this.logsByKey.set(logKey(log.namespace, log.pod, log.container, log.previous), log)
    }
    const own = this.logsByKey.get(logKey(namespace, pod, container, previous))
    if (own) return own
    // A look-alike Pod left out of the log sample reads the logs of the sampled Pod that stands for it.
    const standIn = this.snapshot.logSample?.standIns[`${namespace}/${pod}`]
    if (!standIn) return undefined
    const [standInNamespace, standInPod] = standIn.split('/')
    return this.logsByKey.get(logKey(standInNamespace, standInPod, container, previous))
  }

  ownerSetOf(node: ChainNode): ChainNodeSet | undefined {
    const name = ownerSetName(node)
    return name ? this.get('ChainNodeSet', node.metadata.namespace, name) : undefined
  }

  configMapOf(node: ChainNode): ConfigMap | undefined {
    return this.get('ConfigMap', node.metadata.namespace, node.metadata.name)
  }

  dataPvcOf(node: ChainNode): PersistentVolumeClaim | undefined {
    return this.get('PersistentVolumeClaim', node.metadata.namespace, node.metadata.name)
  }

  storageClassOf(pvc: PersistentVolumeClaim | undefined): StorageClass | undefined {
    const name = pvc?.spec?.storageClassName
    return name ? this.get('StorageClass', undefined, name) : this.list('StorageClass').find(isDefaultStorageClass)
  }

  volumeSnapshotsOf(node: ChainNode): VolumeSnapshot[] {
    const { name, namespace } = node.metadata
    return this.list('VolumeSnapshot', namespace).filter(
      (snap) => snap.metadata.labels?.['chain-node'] === name || snap.spec?.source?.persistentVolumeClaimName === name,
    )
  }

  /** The operator release that reconciles this node: its WORKER_NAME equals the node's worker-name label. */
  operatorFor(node: KubeObject): Workload | undefined {
    const worker = node.metadata.labels?.['worker-name'] ?? ''
    return this.list('Deployment').find((deployment) => operatorWorkerName(deployment) === worker)
  }

  operatorPods(deployment: Workload): Pod[] {
    const selector = deployment.spec?.selector?.matchLabels ?? {}
    return this.list('Pod', deployment.metadata.namespace).filter(
      (pod) => Object.keys(selector).length > 0 && Object.entries(selector).every(([key, value]) => pod.metadata.labels?.[key] === value),
    )
  }

  /** All pods in the namespace matched by a label selector (matchLabels and matchExpressions). */
  podsSelectedBy(namespace: string | undefined, selector: LabelSelector | undefined): Pod[] {
    return this.list('Pod', namespace).filter((pod) => selectorMatches(selector, pod.metadata.labels ?? {}))
  }
}

/** Add to a list in a map in place: copying the list each time is quadratic for many events of one object. */
function append<T>(map: Map<string, T[]>, key: string, obj: T): void {
  const list = map.get(key)
  if (list) list.push(obj)
  else map.set(key, [obj])
}

export function isDefaultStorageClass(sc: KubeObject): boolean {
  return sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true'
}
