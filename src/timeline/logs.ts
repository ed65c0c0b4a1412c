import type { SnapshotIndex } from '../snapshot/index.js'
import { mainContainerName, NODE_UTILS } from '../snapshot/node-layout.js'
import { parseProblemLine } from './log-line.js'
import { isoTime } from './time.js'
import type { RawEntry } from './types.js'
import { logLines } from '../snapshot/log-lines.js'
import type { ChainNode } from '../snapshot/kinds.js'

/** Error and warning lines of the chain's main container and node-utils, this run's and the previous one's. */
export function appLogEntries(index: SnapshotIndex, node: ChainNode): RawEntry[] {
  const pod = index.podOf(node)
  if (!pod) return []
  const out: RawEntry[] = []
  for (const container of [mainContainerName(node, pod), NODE_UTILS]) {
    if (!container) continue
    for (const previous of [true, false]) {
      for (const line of logLines(index, pod, container, previous)) {
        const parsed = parseProblemLine(line.text)
        if (!parsed) continue
        const at = isoTime(line.at)
        if (!at) continue
        out.push({
          at,
          source: 'log',
          kind: `log/${container}`,
          subject: { kind: 'Pod', namespace: pod.metadata.namespace, name: `${pod.metadata.name}/${container}${previous ? ' (previous)' : ''}` },
          level: parsed.level,
          text: parsed.text,
        })
      }
    }
  }
  return out
}
