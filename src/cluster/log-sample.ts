import type { KubeObject } from '../snapshot/types.js'
import { allContainerStatuses, podContainers, podInitContainers, podReady } from '../snapshot/node-layout.js'
import type { ChainNode, KubeEvent, Pod } from '../snapshot/kinds.js'

const stateOf = (state: Record<string, Record<string, unknown> | undefined> | undefined) => {
  const [kind, detail] = Object.entries(state ?? {}).find(([, value]) => value) ?? ['none', undefined]
  return `${kind}:${String(detail?.reason ?? '')}:${String(detail?.exitCode ?? '')}`
}

/**
 * What can be seen of a node without reading a log: the ChainNode's status, its Pod's containers and
 * their states, and the reasons of the Events about both. Nodes with the same signature look alike, so
 * the logs of a few of them tell what the logs of the others would. Heights and times are left out:
 * healthy nodes differ in them all the time.
 */
export function lookAlikeSignature(node: ChainNode, pod: Pod, events: KubeEvent[]): string {
  const containers = [...podInitContainers(pod), ...podContainers(pod)].map((c) => `${c.name}=${c.image ?? ''}`)
  const statuses = allContainerStatuses(pod).map(
    (s) => `${s.name}:${s.ready ? 'ready' : 'not-ready'}:${(s.restartCount ?? 0) > 0 ? 'restarted' : 'fresh'}:${stateOf(s.state)}:${stateOf(s.lastState)}`,
  )
  const reasons = [...new Set(events.map((e) => `${e.type ?? ''}/${e.reason ?? ''}`))].sort()
  return JSON.stringify([
    node.metadata.namespace,
    node.status?.phase ?? '',
    node.status?.chainID ?? '',
    node.spec ? Object.keys(node.spec).sort() : [],
    pod.status?.phase ?? '',
    podReady(pod),
    Boolean(pod.metadata.deletionTimestamp),
    containers,
    statuses,
    reasons,
  ])
}

export interface LogSamplePlan {
  /** Pods ("namespace/name") whose logs are read. */
  read: Set<string>
  /** Pods left out, each with the sampled Pod whose logs stand for its own. */
  standIns: Record<string, string>
}

/**
 * Split the nodes into groups that look alike and keep the first `perGroup` of each (by name, so runs
 * agree); 0 reads every node. Pure: the same plan for a live run and for a bundle replayed in a test.
 */
export function planLogSample(
  nodes: ChainNode[],
  podOf: (node: ChainNode) => Pod | undefined,
  eventsOf: (obj: KubeObject) => KubeEvent[],
  perGroup: number,
): LogSamplePlan {
  const read = new Set<string>()
  const standIns: Record<string, string> = {}
  const groups = new Map<string, string[]>()
  let skipped = 0
  const key = (obj: KubeObject) => `${obj.metadata.namespace}/${obj.metadata.name}`
  const sorted = [...nodes].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  for (const node of sorted) {
    const pod = podOf(node)
    if (!pod) continue
    if (perGroup <= 0) {
      read.add(key(pod))
      continue
    }
    const signature = lookAlikeSignature(node, pod, [...eventsOf(node), ...eventsOf(pod)])
    const sampled = groups.get(signature)
    if (!sampled) groups.set(signature, [key(pod)])
    else if (sampled.length < perGroup) sampled.push(key(pod))
    else {
      // Spread the stand-ins over the sample, so one sampled log does not carry the whole group.
      standIns[key(pod)] = sampled[skipped++ % sampled.length]
      continue
    }
    read.add(key(pod))
  }
  return { read, standIns }
}
