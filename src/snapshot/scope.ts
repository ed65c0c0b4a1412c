import { compareText } from '../util/compare.js'
import { usageError, type UserError } from '../util/errors.js'
import type { Scope } from './types.js'

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
