import { lineSplitter, type KubeClient } from '../cluster/kube-client.js'
import { cleanLog, logPath } from '../cluster/logs.js'
import { usageError } from '../errors.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { DISCOVERY_GATE, allContainerStatuses, mainContainerName } from '../snapshot/node-layout.js'
import { Redactor } from '../snapshot/redact.js'
import type { KubeObject } from '../snapshot/types.js'

export const CONTAINER_CHOICES = ['app', 'node-utils', 'gate', 'operator', 'all'] as const

export interface LogSource {
  namespace: string
  pod: string
  container: string
  label: string
}

/** Map the user's -c choice to real containers: `app` is the chain binary whatever its name on this operator line. */
export function logSources(index: SnapshotIndex, node: KubeObject, choice: string): LogSource[] {
  const pod = index.podOf(node)
  const ns = node.metadata.namespace!
  if (choice === 'operator') {
    const operator = index.operatorFor(node)
    if (!operator)
      throw usageError(
        'no operator release found for this node',
        'is the cosmopilot operator installed (Deployment labelled app.kubernetes.io/name=cosmopilot)?',
      )
    return index.operatorPods(operator).map((p) => ({ namespace: p.metadata.namespace!, pod: p.metadata.name, container: 'manager', label: p.metadata.name }))
  }
  if (!pod) throw usageError(`chainnode "${node.metadata.name}" has no Pod`, `see chainnode describe ${node.metadata.name}`)
  const present = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c: { name: string }) => c.name)
  const resolve = (name: string) => (name === 'app' ? mainContainerName(node, pod) : name === 'gate' ? DISCOVERY_GATE : name)
  const names = choice === 'all' ? present : [resolve(choice)]
  return names.map((container) => {
    if (!container || !present.includes(container)) {
      throw usageError(`Pod ${pod.metadata.name} has no container "${choice === 'gate' ? DISCOVERY_GATE : choice}"`, `its containers: ${present.join(', ')}`)
    }
    return { namespace: ns, pod: pod.metadata.name, container, label: container }
  })
}

export function restartedContainers(pod: KubeObject | undefined): string[] {
  return allContainerStatuses(pod)
    .filter((s) => (s.restartCount ?? 0) > 0)
    .map((s) => s.name)
}

export interface LogQuery {
  previous: boolean
  tailLines?: number
  sinceSeconds?: number
  grep?: RegExp
  prefix: boolean
  redact: boolean
}

export function formatLines(text: string, source: LogSource, query: LogQuery): string[] {
  // Whole-text masking first, so a PEM block spanning lines is caught as one.
  return cleanLog(query.redact ? new Redactor().text(text) : text)
    .split('\n')
    .filter((line) => line !== '' && (!query.grep || query.grep.test(line)))
    .map((line) => (query.prefix ? `[${source.label}] ${line}` : line))
}

export async function readLive(client: KubeClient, source: LogSource, query: LogQuery): Promise<string[]> {
  const path = logPath(
    { ...source, previous: query.previous },
    { tailLines: query.tailLines ?? 100_000, sinceSeconds: query.sinceSeconds, maxBytes: 32 * 1024 * 1024 },
  ).replace('timestamps=true&', '')
  const { text } = await client.getText(path, 32 * 1024 * 1024)
  return formatLines(text, source, query)
}

export function followLive(client: KubeClient, source: LogSource, query: LogQuery, write: (line: string) => void, signal: AbortSignal): Promise<void> {
  const path = `${logPath({ ...source, previous: false }, { tailLines: query.tailLines ?? 10, sinceSeconds: query.sinceSeconds, maxBytes: 1 << 30 })
    .replace('timestamps=true&', '')
    .replace(/&limitBytes=\d+/, '')}&follow=true`
  return client.stream(
    path,
    lineSplitter((line) => formatLines(line, source, query).forEach(write)),
    signal,
  )
}
