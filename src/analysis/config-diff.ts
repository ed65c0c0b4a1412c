import { parse as parseToml } from 'smol-toml'
import { visible } from '../render/visible.js'

export interface ConfigChange {
  file: string
  /** Dotted key path inside the file, e.g. p2p.persistent_peers. */
  path: string
  kind: 'added' | 'removed' | 'changed'
  before?: unknown
  after?: unknown
}

/** Parse a rendered configuration file: TOML and JSON by key, anything else as one value. */
export function parseConfigFile(name: string, text: string): unknown {
  try {
    if (name.endsWith('.toml')) return parseToml(text)
    if (name.endsWith('.json')) return JSON.parse(text)
  } catch (error) {
    return { '<unparsable>': `${(error as Error).message.split('\n')[0]}` }
  }
  return text
}

const isMap = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)
/** JSON with object keys sorted, so tables inside arrays compare by content, not key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner) =>
    isMap(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((k) => [k, inner[k]]),
        )
      : inner,
  )
const equal = (a: unknown, b: unknown) => canonical(a) === canonical(b)

function diffValue(file: string, path: string, a: unknown, b: unknown, out: ConfigChange[]): void {
  if (isMap(a) && isMap(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      const sub = path ? `${path}.${key}` : key
      if (!(key in b)) out.push({ file, path: sub, kind: 'removed', before: a[key] })
      else if (!(key in a)) out.push({ file, path: sub, kind: 'added', after: b[key] })
      else diffValue(file, sub, a[key], b[key], out)
    }
    return
  }
  if (!equal(a, b)) out.push({ file, path: path || '(whole file)', kind: 'changed', before: a, after: b })
}

/** Key-level differences between two sets of rendered files (ConfigMap data): comments and layout do not count. */
export function diffConfigs(before: Record<string, string>, after: Record<string, string>): ConfigChange[] {
  const out: ConfigChange[] = []
  for (const file of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    if (!(file in after)) out.push({ file, path: '(whole file)', kind: 'removed' })
    else if (!(file in before)) out.push({ file, path: '(whole file)', kind: 'added' })
    else diffValue(file, '', parseConfigFile(file, before[file]), parseConfigFile(file, after[file]), out)
  }
  return out
}

const show = (value: unknown) => (value instanceof Date ? value.toISOString() : JSON.stringify(value))

export function renderChanges(changes: ConfigChange[]): string {
  if (changes.length === 0) return '  (no configuration keys changed)'
  return changes
    .map((c) => {
      const where = `${c.file}: ${c.path}`
      if (c.kind === 'added') return `  + ${where}${c.after === undefined ? '' : ` = ${show(c.after)}`}`
      if (c.kind === 'removed') return `  - ${where}${c.before === undefined ? '' : ` (was ${show(c.before)})`}`
      return `  ~ ${where}: ${show(c.before)} -> ${show(c.after)}`
    })
    .map(visible)
    .join('\n')
}
