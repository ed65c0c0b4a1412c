/**
 * Reading JSON a stranger wrote (a node's RPC answer, a kubeconfig): each step of a path is checked, and only
 * the object's own fields are read, so `__proto__` or `constructor` in an answer is a key like any other.
 */
export function valueAt(value: unknown, ...path: string[]): unknown {
  let current = value
  for (const key of path) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key)) return undefined
    current = (current as Record<string, unknown>)[key]
  }
  return current
}

/** The string at a path, or undefined when it is anything else. */
export function textAt(value: unknown, ...path: string[]): string | undefined {
  const found = valueAt(value, ...path)
  return typeof found === 'string' ? found : undefined
}

/** The list at a path, or an empty one when it is anything else. */
export function listAt(value: unknown, ...path: string[]): unknown[] {
  const found = valueAt(value, ...path)
  return Array.isArray(found) ? found : []
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
