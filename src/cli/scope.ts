import { usageError } from '../errors.js'
import type { Scope } from '../snapshot/types.js'

export interface ScopeInput {
  name?: string
  set?: string
  all?: boolean
  'all-namespaces'?: boolean
  selector?: string
}

export function resolveScope(input: ScopeInput, namespace: string | undefined, nameRequired = false): Scope {
  const chosen = [input.name, input.set, input.all, input['all-namespaces']].filter(Boolean).length
  if (chosen > 1) throw usageError('give only one of NAME, --set, --all and -A', 'see --help')
  if (nameRequired && !input.name) throw usageError('missing NAME of the ChainNode', 'pass the ChainNode name, e.g. chainnode describe fullnode-0 -n NAMESPACE')
  if (input.name) return { kind: 'node', namespace, name: input.name }
  if (input.set) return { kind: 'set', namespace, name: input.set }
  if (input['all-namespaces']) return { kind: 'all' }
  // -l alone looks in the namespace, as kubectl get -l does.
  if (input.all || input.selector) return { kind: 'namespace', namespace }
  throw usageError('no node given', 'pass NAME, --set NAME, --all (the namespace) or -A (all namespaces)')
}
