import { describe, expect, it } from 'vitest'
import { resolveScope } from '../../src/app/snapshot-source.js'

// Issue 40 item 8: `doctor -n NS` diagnoses the nodes `status -n NS` lists, instead of "no node given".
describe('the scope of a command line', () => {
  it('-n alone names the namespace, as status -n NS lists it (a cluster and a bundle alike)', () => {
    expect(resolveScope({ namespace: 'sc-validators' }, 'sc-validators')).toEqual({ kind: 'namespace', namespace: 'sc-validators' })
    expect(resolveScope({ namespace: 'sc-validators' }, 'sc-validators', { wholeByDefault: true })).toEqual({ kind: 'namespace', namespace: 'sc-validators' })
    // The same scope as --all -n NS.
    expect(resolveScope({ namespace: 'x', all: true }, 'x')).toEqual(resolveScope({ namespace: 'x' }, 'x'))
  })

  it('a command that needs one node still asks for its NAME', () => {
    expect(() => resolveScope({ namespace: 'x' }, 'x', { nameRequired: true })).toThrow(/missing NAME/)
  })

  it('nothing given, against a cluster: says exactly how to name the nodes, the namespace included', () => {
    expect(() => resolveScope({}, 'default')).toThrow('no node given')
    try {
      resolveScope({}, 'team-a')
    } catch (error) {
      expect((error as { hint?: string }).hint).toBe(
        'pass NAME, --set NAME, -n NAMESPACE (its nodes, as status -n NAMESPACE lists them), --all (those of namespace team-a) or -A (all namespaces)',
      )
    }
    expect(resolveScope({}, 'default', { namespaceByDefault: true })).toEqual({ kind: 'namespace', namespace: 'default' })
  })

  it('a name with -n is that node, in that namespace', () => {
    expect(resolveScope({ name: 'val-1', namespace: 'sc-validators' }, 'sc-validators')).toEqual({ kind: 'node', namespace: 'sc-validators', name: 'val-1' })
  })

  it('-l is part of the scope (the API server applies it live, the bundle is narrowed by it), and never goes with a NAME', () => {
    expect(resolveScope({ selector: 'nodeset=hub', 'all-namespaces': true }, 'x')).toEqual({ kind: 'all', selector: 'nodeset=hub' })
    expect(resolveScope({ selector: 'role=a' }, 'team-a')).toEqual({ kind: 'namespace', namespace: 'team-a', selector: 'role=a' })
    expect(resolveScope({ set: 'hub', selector: 'role=a' }, 'x')).toEqual({ kind: 'set', namespace: 'x', name: 'hub', selector: 'role=a' })
    // As kubectl get: "name cannot be provided when a selector is specified".
    expect(() => resolveScope({ name: 'val-1', selector: 'role=a' }, 'x')).toThrow('a NAME cannot be given with -l')
  })
})
