import { hash } from 'node:crypto'
import { parse as parseToml } from 'smol-toml'
import { usageError } from '../util/errors.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { KubeObject, Snapshot } from '../snapshot/types.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { annotation } from '../snapshot/operator.js'

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
    if (name.endsWith('.json')) return parseJsonPruned(text)
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
      if (!Object.hasOwn(b, key)) out.push({ file, path: sub, kind: 'removed', before: a[key] })
      else if (!Object.hasOwn(a, key)) out.push({ file, path: sub, kind: 'added', after: b[key] })
      else diffValue(file, sub, a[key], b[key], out)
    }
    return
  }
  if (!equal(a, b)) out.push({ file, path: path || '(whole file)', kind: 'changed', before: a, after: b })
}

/** Keys kept per node in the local history: a config.toml and app.toml hold a few hundred; a stranger's ConfigMap may hold more. */
export const MAX_CONFIG_KEYS = 2000

/**
 * A fingerprint of each key of the rendered configuration ("config.toml:p2p.seeds" → 8 hex digits of its
 * value's SHA-256): enough to name the keys a later configuration changed, without keeping values (which may
 * be long, or not meant to be copied) in the local history. Undefined beyond MAX_CONFIG_KEYS.
 */
export function configKeyDigests(data: Record<string, string>): Record<string, string> | undefined {
  const known = digestsByData.get(data)
  if (known) return known.digests
  const digests = digestKeys(data)
  digestsByData.set(data, { digests })
  return digests
}

/**
 * One fingerprint set per ConfigMap's data: the rules (config-state), the timeline and the history each ask for a
 * node's, and a fleet's configurations are parsed and hashed once a run instead of three times.
 */
const digestsByData = new WeakMap<Record<string, string>, { digests: Record<string, string> | undefined }>()

function digestKeys(data: Record<string, string>): Record<string, string> | undefined {
  const out = new Map<string, string>()
  // A scalar's canonical form is its JSON (no replacer to run); one-shot hashing, no Hash object per key: a fleet's
  // configurations hold tens of thousands of keys, and every run fingerprints them for the history.
  const digest = (value: unknown) =>
    hash('sha256', (value === null || typeof value !== 'object' ? JSON.stringify(value) : canonical(value)) ?? 'undefined').slice(0, 8)
  const walk = (file: string, path: string, value: unknown): boolean => {
    if (isMap(value) && Object.keys(value).length > 0) {
      for (const key of Object.keys(value)) if (!walk(file, path ? `${path}.${key}` : key, value[key])) return false
      return true
    }
    out.set(`${file}:${path || '(whole file)'}`, digest(value))
    return out.size <= MAX_CONFIG_KEYS
  }
  for (const file of Object.keys(data).sort()) if (!walk(file, '', parseConfigFile(file, data[file]))) return undefined
  // Built from a Map: a key named __proto__ stays a key.
  return Object.fromEntries(out)
}

/** The keys ("file:path") whose fingerprint differs between two configurations, added and removed keys included; sorted. */
export function changedConfigKeys(before: Record<string, string>, after: Record<string, string>): string[] {
  const own = (record: Record<string, string>, key: string) => (Object.hasOwn(record, key) ? record[key] : undefined)
  const keys = new Set([...Object.keys(before), ...Object.keys(after)])
  return [...keys].filter((key) => own(before, key) !== own(after, key)).sort()
}

/** Key-level differences between two sets of rendered files (ConfigMap data): comments and layout do not count. */
export function diffConfigs(before: Record<string, string>, after: Record<string, string>): ConfigChange[] {
  const out: ConfigChange[] = []
  for (const file of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    // Own keys only: a file named "constructor" or "toString" is data, never a member every object inherits.
    if (!Object.hasOwn(after, file)) out.push({ file, path: '(whole file)', kind: 'removed' })
    else if (!Object.hasOwn(before, file)) out.push({ file, path: '(whole file)', kind: 'added' })
    else diffValue(file, '', parseConfigFile(file, before[file]), parseConfigFile(file, after[file]), out)
  }
  return out
}

/** One node's rendered configuration, config-hash and Pod in two snapshots (bundles, or a bundle and the cluster). */
export interface ConfigComparison {
  node: string
  configHash: { before?: string; after?: string }
  restartFollowed: boolean
  pod: { before?: string; after?: string }
  changes: ConfigChange[]
}

/** A snapshot and where it was read from (the path or "live" the user gave), for messages. */
export interface ConfigSource {
  snapshot: Snapshot
  source: string
}

/** Compare node `name` (by default the only node of `before`) between two snapshots; a node missing from either is an input error. */
export function compareConfigs(before: ConfigSource, after: ConfigSource, name = onlyNode(before)): ConfigComparison {
  const side = ({ snapshot, source }: ConfigSource) => {
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes().find((n) => n.metadata.name === name)
    if (!node) {
      const held = index.chainNodes().map((n) => n.metadata.name)
      throw usageError(`chainnode "${name}" is not in ${source}`, `it holds: ${held.join(', ') || 'no nodes'}`)
    }
    return { configMap: index.configMapOf(node), pod: index.podOf(node) }
  }
  const [a, b] = [side(before), side(after)]
  const hash = (obj: KubeObject | undefined) => obj?.metadata.annotations?.[annotation('config-hash')]
  return {
    node: name,
    configHash: { before: hash(a.configMap), after: hash(b.configMap) },
    restartFollowed: Boolean(a.pod && b.pod && a.pod.metadata.uid !== b.pod.metadata.uid),
    pod: { before: a.pod?.metadata.uid, after: b.pod?.metadata.uid },
    changes: diffConfigs(a.configMap?.data ?? {}, b.configMap?.data ?? {}),
  }
}

function onlyNode({ snapshot, source }: ConfigSource): string {
  const nodes = new SnapshotIndex(snapshot).chainNodes().map((o) => o.metadata.name)
  if (nodes.length === 0) throw usageError(`${source} holds no ChainNode`, 'pass a bundle collected for a node')
  if (nodes.length > 1) throw usageError(`${source} holds ${nodes.length} nodes: ${nodes.join(', ')}`, `pick one with --node, e.g. --node ${nodes[0]}`)
  return nodes[0]
}

/** What config-hash --watch saw happen to the node's ConfigMap or Pod (app/config-watch.ts), one event at a time. */
export type ConfigWatchEvent =
  | { kind: 'watching'; namespace: string; name: string }
  | { kind: 'configmap-deleted'; at: string; name: string }
  | { kind: 'configmap-changed'; at: string; name: string; hashBefore?: string; hashAfter?: string; changes: ConfigChange[] }
  | { kind: 'pod-deleted'; at: string; name: string; uid?: string }
  | { kind: 'pod-patched'; at: string; name: string; hashBefore?: string; hashAfter?: string }
  | { kind: 'pod-recreated'; at: string; name: string; uid?: string; hashBefore?: string; hashAfter?: string }
