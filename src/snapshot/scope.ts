import { compareText } from '../util/compare.js'
import { usageError, type UserError } from '../util/errors.js'
import type { Scope } from './types.js'

export interface ScopeInput {
  name?: string
  set?: string
  all?: boolean
  'all-namespaces'?: boolean
  selector?: string
  /** -n as given on the command line (not the context's): alone, it names the namespace's nodes. */
  namespace?: string
}

/**
 * The one place a command line becomes a Scope. A bundle answers for everything it holds when nothing is
 * named (wholeByDefault); a listing reads the namespace, as kubectl get does (namespaceByDefault); other
 * commands against a cluster need to be told which nodes, and -n alone tells them: that namespace's.
 */
export function resolveScope(
  input: ScopeInput,
  namespace: string | undefined,
  {
    nameRequired = false,
    wholeByDefault = false,
    namespaceByDefault = false,
  }: { nameRequired?: boolean; wholeByDefault?: boolean; namespaceByDefault?: boolean } = {},
): Scope {
  const chosen = [input.name, input.set, input.all, input['all-namespaces']].filter(Boolean).length
  // `doctor -n NS` means the nodes `status -n NS` lists, as --all -n NS does (a bundle's too).
  if (chosen === 0 && input.namespace && !nameRequired) return { kind: 'namespace', namespace: input.namespace }
  if (chosen === 0 && wholeByDefault) return { kind: 'all' }
  if (chosen === 0 && namespaceByDefault) return { kind: 'namespace', namespace }
  if (chosen > 1) throw usageError('give only one of NAME, --set, --all and -A', 'see --help')
  if (nameRequired && !input.name) throw usageError('missing NAME of the ChainNode', 'pass the ChainNode name, e.g. chainnode describe fullnode-0 -n NAMESPACE')
  if (input.name) return { kind: 'node', namespace, name: input.name }
  if (input.set) return { kind: 'set', namespace, name: input.set }
  if (input['all-namespaces']) return { kind: 'all' }
  // -l alone looks in the namespace, as kubectl get -l does.
  if (input.all || input.selector) return { kind: 'namespace', namespace }
  throw usageError(
    'no node given',
    `pass NAME, --set NAME, -n NAMESPACE (its nodes, as status -n NAMESPACE lists them), --all (those of namespace ${namespace ?? 'default'}) or -A (all namespaces)`,
  )
}

/**
 * Where a named node or set was looked for: a cluster's namespace, or a bundle and the nodes it holds. `setNamed`:
 * a ChainNodeSet of the name asked for as a node exists there (its hint is --set).
 */
export type LookedIn = ({ namespace: string } | { bundle: string; namespace?: string; held: string[] }) & { setNamed?: boolean }

/** The one wording of "the node (or set) you named is not there", for a cluster and for a bundle alike. */
export function notFound(scope: Scope, where: LookedIn): UserError {
  if (scope.kind === 'node' && where.setNamed) {
    const ns = where.namespace ? ` -n ${where.namespace}` : ''
    const source = 'bundle' in where ? ` --bundle ${where.bundle}` : ''
    return usageError(
      `"${scope.name}" is a ChainNodeSet, not a ChainNode${where.namespace ? ` in namespace "${where.namespace}"` : ''}`,
      `diagnose the set with: chainnode doctor --set ${scope.name}${ns}${source}`,
    )
  }
  if ('bundle' in where) {
    const place = `${where.namespace ? ` of namespace ${where.namespace}` : ''} in bundle ${where.bundle}`
    return usageError(
      scope.kind === 'node' ? `chainnode "${scope.name}" is not${place}` : `no node of ChainNodeSet "${scope.name}" is${place}`,
      `it holds: ${[...where.held].sort(compareText).join(', ') || 'no nodes'}`,
    )
  }
  const what = scope.kind === 'set' ? `chainnodeset "${scope.name}"` : `chainnode "${scope.name}"`
  return usageError(`${what} not found in namespace "${where.namespace}"`, `list them with: kubectl get chainnodes -n ${where.namespace} (or pass -n)`)
}
