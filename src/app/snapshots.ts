import { readBundle } from '../snapshot/bundle.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { redactSnapshot } from '../snapshot/redact.js'
import { notFound } from '../snapshot/scope.js'
import { parseLabelSelector, selectorMatches } from '../snapshot/label-selector.js'
import { notYetNamed, unreadLogs } from '../snapshot/left-out.js'
import { ownerSetName, type LogRole } from '../snapshot/node-layout.js'
import type { KubeObject, Scope, Snapshot } from '../snapshot/types.js'
import type { SnapshotRequest } from './snapshot-source.js'
import { operatorWorkerName } from '../snapshot/operator.js'
import { isKind, type Workload } from '../snapshot/kinds.js'

/** A bundle replayed offline, narrowed to the scope asked for (a bundle of a namespace can answer for one node). */
export async function bundleSnapshot(
  file: string,
  request: Pick<SnapshotRequest, 'scope' | 'redact'> & { lacking?: ReadonlySet<LogRole> },
  onProgress?: (what: string) => void,
): Promise<Snapshot> {
  const snapshot = await readBundle(file, undefined, onProgress)
  const narrowed = narrowToScope(snapshot, request.scope)
  const { scope } = request
  // A set with no ChainNode yet (its genesis cannot be obtained) is still there to diagnose.
  const setItself = scope.kind === 'set' && narrowed.objects.some((o) => o.kind === 'ChainNodeSet' && o.metadata.name === scope.name)
  if ((scope.kind === 'node' || scope.kind === 'set') && !setItself && !narrowed.objects.some((o) => o.kind === 'ChainNode')) {
    // Listed from the whole bundle, before narrowing: what the user could have asked for instead.
    const held = snapshot.objects.filter((o) => o.kind === 'ChainNode').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
    const setNamed = snapshot.objects.some(
      (o) => o.kind === 'ChainNodeSet' && o.metadata.name === scope.name && (!scope.namespace || o.metadata.namespace === scope.namespace),
    )
    throw notFound(scope, { bundle: file, namespace: scope.namespace, held, setNamed })
  }
  // The logs of the nodes in scope that the rules would read and the bundle does not hold: named, never taken as quiet.
  // What the collection left out (manifest leftOut) is evidence this replay lacks too, named like a read that failed.
  const leftOut = notYetNamed(narrowed.leftOut ?? [], narrowed.collectionErrors)
  const named = [...narrowed.collectionErrors, ...leftOut]
  const lacking = request.lacking ? unreadLogs({ ...narrowed, collectionErrors: named }, request.lacking) : []
  const complete = leftOut.length + lacking.length > 0 ? { ...narrowed, collectionErrors: [...named, ...lacking] } : narrowed
  return request.redact ? redactSnapshot(complete) : complete
}

export function narrowToScope(snapshot: Snapshot, scope: Scope): Snapshot {
  const wholeNamespaces = scope.kind === 'all' || (scope.kind === 'namespace' && !scope.namespace)
  if (wholeNamespaces && !scope.selector) return snapshot
  const selector = scope.selector ? parseLabelSelector(scope.selector) : undefined
  const keep = (ns: string | undefined, name: string, labels?: Record<string, string>) =>
    (!selector || selectorMatches(selector, labels ?? {})) &&
    (wholeNamespaces ||
      ((!scope.namespace || ns === scope.namespace) &&
        (scope.kind === 'namespace' || (scope.kind === 'node' ? name === scope.name : labels?.nodeset === scope.name))))
  const dropNode = (obj: { kind: string; metadata: { namespace?: string; name: string; labels?: Record<string, string> } }) =>
    obj.kind === 'ChainNode' && !keep(obj.metadata.namespace, obj.metadata.name, obj.metadata.labels)
  // The kept nodes in a set, once: a scan of every object for every table row is quadratic (10,000 nodes, 200,000 Events).
  const kept = new Set<string>()
  const owners = new Set<string>()
  for (const obj of snapshot.objects) {
    if (!isKind(obj, 'ChainNode') || dropNode(obj)) continue
    kept.add(`${obj.metadata.namespace}\u0000${obj.metadata.name}`)
    const set = ownerSetName(obj)
    if (set) owners.add(`${obj.metadata.namespace}\u0000${set}`)
  }
  // A ChainNodeSet stays where the live run would read it (the namespace asked for, the set named, the owner of a
  // node kept): another namespace's set left in a narrowed bundle would be diagnosed as one of its subjects.
  const keepSet = (obj: KubeObject) =>
    wholeNamespaces ||
    ((!scope.namespace || obj.metadata.namespace === scope.namespace) &&
      (scope.kind === 'namespace' ||
        (scope.kind === 'set' ? obj.metadata.name === scope.name : owners.has(`${obj.metadata.namespace}\u0000${obj.metadata.name}`))))
  const drop = (obj: KubeObject) => dropNode(obj) || (obj.kind === 'ChainNodeSet' && !keepSet(obj))
  return {
    ...snapshot,
    objects: snapshot.objects.filter((obj) => !drop(obj)),
    chainNodeRows: snapshot.chainNodeRows.filter((row) => kept.has(`${row.namespace}\u0000${row.name}`)),
    ...withContext(snapshot, snapshot.objects.filter(dropNode)),
  }
}

/**
 * The probed nodes a narrowed bundle leaves out stay as context of the key search (snapshot/types.ts KeySearch):
 * `doctor NAME --bundle` names every holder of NAME's validator key, as the run over the whole bundle does.
 */
function withContext(snapshot: Snapshot, dropped: KubeObject[]): Pick<Snapshot, 'keySearch'> {
  const probed = new Set(snapshot.probes.filter((p) => p.kind === 'chain' && p.chain?.status).map((p) => `${p.namespace}/${p.pod}`))
  const context = dropped.filter((node) => probed.has(`${node.metadata.namespace}/${node.metadata.name}`))
  if (context.length === 0) return snapshot.keySearch ? { keySearch: snapshot.keySearch } : {}
  const search = snapshot.keySearch ?? {
    where: snapshot.scope.kind === 'all' ? ('cluster' as const) : ('namespaces' as const),
    ...(snapshot.scope.kind === 'all' ? {} : { namespaces: [snapshot.scope.namespace ?? 'default'] }),
    notes: [],
    nodes: [],
    probes: [],
  }
  return { keySearch: { ...search, nodes: [...search.nodes, ...context] } }
}

/**
 * A bundle of one node holds only the operator releases that reconcile it (WORKER_NAME equal to its
 * worker-name label): the others, often other teams' releases in other namespaces, cannot explain it and
 * are not the sender's to hand out with a ticket.
 */
export function onlyReconcilingReleases(snapshot: Snapshot): Snapshot {
  if (snapshot.scope.kind !== 'node') return snapshot
  const index = new SnapshotIndex(snapshot)
  const workers = new Set(index.chainNodes().map((node) => node.metadata.labels?.['worker-name'] ?? ''))
  const isRelease = (obj: KubeObject): obj is Workload =>
    isKind(obj, 'Deployment') && (obj.spec?.template?.spec?.containers ?? []).some((c) => c.name === 'manager')
  const others = snapshot.objects.filter(isRelease).filter((obj) => !workers.has(operatorWorkerName(obj)))
  if (others.length === 0) return snapshot
  const pods = others.flatMap((deployment) => index.operatorPods(deployment))
  const dropped = new Set<KubeObject>([...others, ...pods])
  const droppedPods = new Set(pods.map((pod) => `${pod.metadata.namespace}/${pod.metadata.name}`))
  return {
    ...snapshot,
    objects: snapshot.objects.filter((obj) => !dropped.has(obj)),
    logs: snapshot.logs.filter((log) => !droppedPods.has(`${log.namespace}/${log.pod}`)),
  }
}
