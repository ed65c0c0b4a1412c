import { incompleteError, usageError } from '../util/errors.js'
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
    const found = fromTable(await client.getJSON(`${listPathFor}?includeObject=Object&${FROM_CACHE}`, TABLE_ACCEPT))
    if (sets) return { ...found, ...(await sets) }
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
    throw explainLookupFailure(error, scope, ns, await isSetName(client, scope, ns, error))
  }
}

/** A node asked for by a name that is a ChainNodeSet's: one more GET, only after the node was not found. */
async function isSetName(client: KubeClient, scope: Scope, ns: string, error: unknown): Promise<boolean> {
  if (scope.kind !== 'node' || !(error instanceof ApiError) || error.reason !== 'not-found') return false
  try {
    await client.getJSON(`${CHAINNODES}/namespaces/${ns}/chainnodesets/${scope.name}`)
    return true
  } catch {
    return false
  }
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

function explainLookupFailure(error: unknown, scope: Scope, ns: string, setNamed = false): Error {
  if (!(error instanceof ApiError)) return error as Error
  if (error.reason === 'not-found') {
    // A missing object says `chainnodes.cosmopilot.voluzi.com "x" not found`; a missing API says anything else.
    if (!/"[^"]*" not found/.test(error.message)) {
      return usageError(
        'the ChainNode CRD (chainnodes.cosmopilot.voluzi.com/v1) is not installed in this cluster',
        'is this the cluster that runs the cosmopilot operator? check --context',
      )
    }
    if (scope.kind === 'node' || scope.kind === 'set') return notFound(scope, { namespace: ns, setNamed })
  }
  if (error.reason === 'forbidden') return incompleteError(`not allowed to read ChainNodes: ${error.message}`, 'grant the read-only role in deploy/rbac.yaml')
  if (error.reason === 'unauthorized')
    return incompleteError('the API server rejected the credentials (401 Unauthorized)', 'refresh the token or credentials of this context')
  return incompleteError(
    error.message,
    error.reason === 'tls' ? 'check the cluster CA in the kubeconfig' : 'check that the cluster is reachable (kubectl cluster-info)',
  )
}
