import type { KubeObject } from '../snapshot/types.js'
import { usageError } from '../util/errors.js'
import type { ChainNode } from '../snapshot/kinds.js'

/**
 * kubectl's listing habits for status: `-o name`, `--sort-by`, `--show-labels`, `-L`. They read the
 * ChainNode object, as kubectl reads the object it lists.
 */

/** `-o name`: resource.group/name, as `kubectl get chainnodes -o name` prints it. */
export const nameLine = (node: ChainNode): string => `chainnode.${(node.apiVersion ?? 'cosmopilot.voluzi.com/v1').split('/')[0]}/${node.metadata.name}`

/** The document kubectl get -o json|jsonpath prints for several objects: a v1 List of them. */
export const kubectlList = (items: readonly KubeObject[]) => ({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } })

/** A field path as --sort-by takes it: `.metadata.name` or `{.status.latestHeight}`; only fields, no filters. */
export function fieldPath(expression: string): string[] {
  const bare = expression.trim().replace(/^\{(.*)\}$/, '$1')
  if (!/^(\.[A-Za-z0-9_-]+)+$/.test(bare))
    throw usageError(
      `--sort-by "${expression}" is not a field path`,
      'give one as kubectl takes it, e.g. --sort-by .metadata.name or --sort-by {.status.latestHeight}',
    )
  return bare.slice(1).split('.')
}

/** The value at a path; own properties only, so a key named __proto__ is data, not the prototype. */
export function valueAt(object: unknown, path: readonly string[]): unknown {
  let value: unknown = object
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** Order as kubectl's --sort-by: numbers by value, the rest as text; a node without the field comes first. */
export function sortByField<T>(items: readonly T[], objectOf: (item: T) => KubeObject | undefined, expression: string): T[] {
  const path = fieldPath(expression)
  const keyed = items.map((item) => ({ item, value: valueAt(objectOf(item), path) }))
  const rank = (v: unknown) => (v === undefined || v === null ? 0 : typeof v === 'number' ? 1 : 2)
  return keyed
    .sort((a, b) => {
      const byKind = rank(a.value) - rank(b.value)
      if (byKind !== 0) return byKind
      if (typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value
      const [x, y] = [String(a.value ?? ''), String(b.value ?? '')]
      return x < y ? -1 : x > y ? 1 : 0
    })
    .map(({ item }) => item)
}

/** `--show-labels`: k=v,k2=v2 sorted by key, `<none>` without labels (kubectl's LABELS column). */
export function labelsCell(labels: Record<string, string> | undefined): string {
  const entries = Object.entries(labels ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(',') : '<none>'
}

/** `-L key` (repeatable, or comma-separated): one column per key, headed by the key's last segment in capitals, as kubectl does. */
export function labelColumns(keys: readonly string[] | undefined): { header: string; key: string }[] {
  return (keys ?? [])
    .flatMap((k) => k.split(','))
    .map((k) => k.trim())
    .filter(Boolean)
    .map((key) => ({ key, header: (key.split('/').pop() ?? key).toUpperCase() }))
}
