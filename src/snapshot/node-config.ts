import type { SnapshotIndex } from './index.js'
import type { ChainNode } from './kinds.js'

/** The rendered config.toml of a node, as the operator wrote it into ConfigMap <node>. */
export function configFile(index: SnapshotIndex, node: ChainNode, file: string): string | undefined {
  return index.configMapOf(node)?.data?.[file]
}

/** A top-level or [section] string value of a TOML file; enough for the handful of keys rules read. */
export function tomlString(toml: string | undefined, section: string, key: string): string | undefined {
  if (toml === undefined) return undefined
  let current = ''
  for (const raw of toml.split('\n')) {
    const line = raw.trim()
    const header = /^\[([^\]]+)\]/.exec(line)
    if (header) current = header[1].trim()
    else if (current === section) {
      const match = new RegExp(`^${key.replace(/[-_]/g, '[-_]')}\\s*=\\s*"(.*)"`).exec(line)
      if (match) return match[1]
    }
  }
  return undefined
}
