import { incompleteError, usageError, UserError } from '../util/errors.js'
import { didYouMean } from '../util/suggest.js'
import { notFound } from '../snapshot/scope.js'
import type { CollectionError, KubeObject, Scope, TableRow } from '../snapshot/types.js'
import { ApiError, type KubeClient } from './kube-client.js'
import { readerFor, withoutManagedFields } from './lists.js'
import { CHAINNODESETS, FROM_CACHE } from './targets.js'
import { CHAINNODE_API } from '../snapshot/operator.js'
import { type ChainNode, type ChainNodeSet, isKind } from '../snapshot/kinds.js'

const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io, application/json'
const CHAINNODES = `/apis/${CHAINNODE_API}`

export interface FoundNodes {
  nodes: ChainNode[]
  rows: TableRow[]
  sets: ChainNodeSet[]
  /** A list of sets that failed (the nodes were still found). */
  errors?: CollectionError[]
}

/** The ChainNodes in scope, as the server's Table (the exact `kubectl get -o wide` columns) with the objects. */
export async function findChainNodes(client: KubeClient, scope: Scope): Promise<FoundNodes> {
  const ns = scope.namespace ?? 'default'
  try {
    if (scope.kind === 'node')
      return fromTable(await client.getJSON(`${CHAINNODES}/namespaces/${ns}/chainnodes/${scope.name}?includeObject=Object`, TABLE_ACCEPT))
    const listPathFor = scope.kind === 'all' ? `${CHAINNODES}/chainnodes` : `${CHAINNODES}/namespaces/${ns}/chainnodes`
    const sets = scope.kind === 'set' ? undefined : listSets(client, scope.kind === 'all' ? undefined : ns)
    // -l is the server's to apply: the nodes it leaves out are never read, probed or logged.
    const selected = scope.selector ? `labelSelector=${encodeURIComponent(scope.selector)}&` : ''
    const found = fromTable(await client.getJSON(`${listPathFor}?includeObject=Object&${selected}${FROM_CACHE}`, TABLE_ACCEPT))
    if (sets) {
      const listed = { ...found, ...(await sets) }
      // Nothing in a namespace: a mistyped namespace is named as one, not listed as empty.
      if (scope.kind === 'namespace' && listed.nodes.length === 0 && listed.sets.length === 0) await refuseMissingNamespace(client, ns)
      return listed
    }
    const set = await client.getJSON<KubeObject>(`${CHAINNODES}/namespaces/${ns}/chainnodesets/${scope.name}`)
    const owned = (node: ChainNode) =>
      node.metadata.ownerReferences?.some((ref) => ref.kind === 'ChainNodeSet' && ref.uid === set.metadata.uid) || node.metadata.labels?.nodeset === scope.name
    const nodes = found.nodes.filter(owned)
    return {
      nodes,
      rows: found.rows.filter((row) => nodes.some((n) => n.metadata.name === row.name)),
      sets: [{ ...set, apiVersion: CHAINNODE_API, kind: 'ChainNodeSet' as const }],
    }
  } catch (error) {
    const explained = explainLookupFailure(error, scope, ns)
    const named = (scope.kind === 'node' || scope.kind === 'set') && scope.name ? { kind: scope.kind, name: scope.name } : undefined
    const missing = error instanceof ApiError && error.missing === 'object' && explained instanceof UserError
    throw missing && named ? await notFoundHere(client, named, ns, explained) : explained
  }
}

/**
 * A named node or set that is not in the namespace: where it is instead (doctor val-1 without -n, while val-1 runs in
 * sc-validators), a set named where a node was meant or the other way round, or a namespace that does not exist.
 * Each look is a read the user may not be allowed: one that fails adds nothing, and `plain` is said as it was.
 */
async function notFoundHere(client: KubeClient, scope: { kind: 'node' | 'set'; name: string }, ns: string, plain: UserError): Promise<UserError> {
  const asked = scope.kind === 'set' ? 'chainnodesets' : 'chainnodes'
  const other = scope.kind === 'set' ? 'chainnodes' : 'chainnodesets'
  const [same, otherKind] = await Promise.all([namespacesHolding(client, asked, scope.name), namespacesHolding(client, other, scope.name)])
  const elsewhere = same.filter((namespace) => namespace !== ns)
  if (elsewhere.length)
    return usageError(
      plain.message,
      `it is in ${namespaceList(elsewhere)}: add ${elsewhere
        .slice(0, 3)
        .map((n) => `-n ${n}`)
        .join(' or ')}`,
    )
  if (otherKind.length) {
    const here = otherKind.includes(ns) ? ns : otherKind[0]
    const where = here === ns ? '' : ` -n ${here}`
    return usageError(
      plain.message,
      scope.kind === 'set'
        ? `"${scope.name}" is a ChainNode in namespace ${here}: name it without --set${where ? `, with${where}` : ''}`
        : `"${scope.name}" is a ChainNodeSet in namespace ${here}: use --set ${scope.name}${where}`,
    )
  }
  return (await missingNamespace(client, ns)) ?? plain
}

/** The namespaces holding a ChainNode (or ChainNodeSet) of this name; none when the list is not allowed. */
async function namespacesHolding(client: KubeClient, resource: 'chainnodes' | 'chainnodesets', name: string): Promise<string[]> {
  try {
    const list = await client.getJSON<{ items?: KubeObject[] }>(`${CHAINNODES}/${resource}?fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`)
    return [...new Set((list.items ?? []).map((item) => item.metadata.namespace ?? ''))].filter(Boolean).sort()
  } catch {
    return []
  }
}

/** "namespace a", "namespaces a and b", "namespaces a, b, c and 2 more". */
function namespaceList(names: string[]): string {
  if (names.length === 1) return `namespace ${names[0]}`
  const shown = names.slice(0, 3)
  const more = names.length - shown.length
  return `namespaces ${more ? `${shown.join(', ')} and ${more} more` : `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`}`
}

async function refuseMissingNamespace(client: KubeClient, ns: string): Promise<void> {
  const missing = await missingNamespace(client, ns)
  if (missing) throw missing
}

/** The error for a namespace the cluster does not have, with the nearest it has; undefined when it exists or cannot be read. */
async function missingNamespace(client: KubeClient, ns: string): Promise<UserError | undefined> {
  try {
    await client.getJSON(`/api/v1/namespaces/${encodeURIComponent(ns)}`)
    return undefined
  } catch (error) {
    if (!(error instanceof ApiError) || error.reason !== 'not-found') return undefined
  }
  const names = await client
    .getJSON<{ items?: KubeObject[] }>('/api/v1/namespaces')
    .then((list) => (list.items ?? []).map((item) => item.metadata.name))
    .catch(() => [] as string[])
  return usageError(`namespace "${ns}" does not exist`, `${didYouMean(ns, names)}list them with: kubectl get namespaces`)
}

/**
 * The sets of a namespace (or all), listed with the nodes: a set with no ChainNode yet (its genesis cannot be
 * obtained) is a subject of its own, which a scope of a namespace must not miss.
 */
async function listSets(client: KubeClient, namespace: string | undefined): Promise<Pick<FoundNodes, 'sets' | 'errors'>> {
  // One list read as collect's: a failure recorded, a missing CRD (an operator line without sets) none to miss.
  const errors: CollectionError[] = []
  const sets = (await readerFor(client, errors, async (items) => items)(CHAINNODESETS, namespace)).filter((set) => isKind(set, 'ChainNodeSet'))
  return errors.length ? { sets, errors } : { sets }
}

function fromTable(table: {
  columnDefinitions?: { name: string; type: string; priority?: number }[]
  rows?: { cells: unknown[]; object?: KubeObject }[]
}): FoundNodes {
  const columns = (table.columnDefinitions ?? []).map((c) => ({ name: c.name, type: c.type, priority: c.priority ?? 0 }))
  const nodes: ChainNode[] = []
  const rows: TableRow[] = []
  for (const row of table.rows ?? []) {
    if (!row.object) continue
    const node = withoutManagedFields({ ...row.object, apiVersion: CHAINNODE_API, kind: 'ChainNode' as const })
    nodes.push(node)
    rows.push({ namespace: node.metadata.namespace!, name: node.metadata.name, columns, cells: row.cells })
  }
  return { nodes, rows, sets: [] }
}

function explainLookupFailure(error: unknown, scope: Scope, ns: string): Error {
  if (!(error instanceof ApiError)) return error as Error
  if (error.reason === 'not-found') {
    if (error.missing !== 'object') {
      return usageError(
        'the ChainNode CRD (chainnodes.cosmopilot.voluzi.com/v1) is not installed in this cluster',
        'is this the cluster that runs the cosmopilot operator? check --context',
      )
    }
    if (scope.kind === 'node' || scope.kind === 'set') return notFound(scope, { namespace: ns })
  }
  if (error.reason === 'forbidden')
    return incompleteError(`not allowed to read ChainNodes: ${error.message}`, 'grant the read-only role in deploy/rbac.yaml', 'forbidden')
  if (error.reason === 'unauthorized')
    return incompleteError('the API server rejected the credentials (401 Unauthorized)', 'refresh the token or credentials of this context', 'unauthorized')
  return incompleteError(
    error.message,
    error.reason === 'tls' ? 'check the cluster CA in the kubeconfig' : 'check that the cluster is reachable (kubectl cluster-info)',
    error.reason,
  )
}
