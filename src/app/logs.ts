import { ApiError, lineSplitter, type KubeClient } from '../cluster/kube-client.js'
import { cleanLog, logPath } from '../cluster/logs.js'
import { usageError } from '../util/errors.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses, DISCOVERY_GATE, mainContainerName } from '../snapshot/node-layout.js'
import { Redactor } from '../snapshot/redact.js'
import type { ChainNode, Pod } from '../snapshot/kinds.js'

export const CONTAINER_CHOICES = ['app', 'node-utils', 'gate', 'operator', 'all'] as const

export interface LogSource {
  namespace: string
  pod: string
  container: string
  label: string
  /** The Pod as the snapshot saw it: its container states word a log that cannot be read. */
  podObject?: Pod
}

/** Map the user's -c choice to real containers: `app` is the chain binary whatever its name on this operator line. */
export function logSources(index: SnapshotIndex, node: ChainNode, choice: string): LogSource[] {
  const pod = index.podOf(node)
  const ns = node.metadata.namespace!
  if (choice === 'operator') {
    const operator = index.operatorFor(node)
    if (!operator)
      throw usageError(
        'no operator release found for this node',
        'is the cosmopilot operator installed (Deployment labelled app.kubernetes.io/name=cosmopilot)?',
      )
    return index
      .operatorPods(operator)
      .map((p) => ({ namespace: p.metadata.namespace!, pod: p.metadata.name, container: 'manager', label: p.metadata.name, podObject: p }))
  }
  if (!pod) throw usageError(`chainnode "${node.metadata.name}" has no Pod`, `see chainnode describe ${node.metadata.name}`)
  const present = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])].map((c) => c.name)
  const resolve = (name: string) => (name === 'app' ? mainContainerName(node, pod) : name === 'gate' ? DISCOVERY_GATE : name)
  const names = choice === 'all' ? present : [resolve(choice)]
  return names.map((container) => {
    if (!container || !present.includes(container)) {
      throw usageError(`Pod ${pod.metadata.name} has no container "${choice === 'gate' ? DISCOVERY_GATE : choice}"`, `its containers: ${present.join(', ')}`)
    }
    return { namespace: ns, pod: pod.metadata.name, container, label: container, podObject: pod }
  })
}

export interface LogQuery {
  previous: boolean
  /** Lines from the end; -1 (or absent) for all, as kubectl's --tail. */
  tailLines?: number
  sinceSeconds?: number
  grep?: RegExp
  prefix: boolean
  redact: boolean
}

/** `mask` carries masking state across the chunks of a followed log; a text read whole is masked on its own. */
export function formatLines(text: string, source: LogSource, query: LogQuery, mask = (whole: string) => new Redactor().text(whole)): string[] {
  // Whole-text masking first, so a PEM block spanning lines is caught as one (and one cut by --tail as far as it goes).
  return cleanLog(query.redact ? mask(text) : text)
    .split('\n')
    .filter((line) => line !== '' && (!query.grep || query.grep.test(line)))
    .map((line) => (query.prefix ? `[${source.label}] ${line}` : line))
}

/** The last `tail` lines; a negative tail keeps them all (kubectl's --tail -1). */
export function tailOf<T>(lines: T[], tail: number | undefined): T[] {
  return tail === undefined || tail < 0 ? lines : lines.slice(Math.max(0, lines.length - tail))
}

/** A container with no previous run has no previous log: kubectl's words, and an error as there. */
export const noPreviousError = (source: LogSource) =>
  usageError(`previous terminated container "${source.container}" in pod "${source.pod}" not found`, 'the container has not restarted; drop -p/--previous')

/**
 * A log from a bundle, filtered as the API server filters live logs: --since counts back from when the
 * bundle was collected, using the timestamp each line was recorded with; lines without one follow the line before.
 */
export function bundleLines(index: SnapshotIndex, source: LogSource, query: LogQuery): string[] | undefined {
  const record = index.logsFor(source.namespace, source.pod, source.container, query.previous)
  if (!record || (!record.text && record.error)) return undefined
  let text = record.text
  if (query.sinceSeconds !== undefined) {
    const cutoff = Date.parse(index.snapshot.collectedAt) - query.sinceSeconds * 1000
    let keep = false
    text = text
      .split('\n')
      .filter((line) => {
        const stamp = /^(\d{4}-\d\d-\d\dT\S+Z)\s/.exec(line)
        if (stamp) keep = Date.parse(stamp[1]) >= cutoff
        return keep
      })
      .join('\n')
  }
  return tailOf(formatLines(text, source, query), query.tailLines)
}

export async function readLive(client: KubeClient, source: LogSource, query: LogQuery): Promise<string[]> {
  const path = logPath(
    { ...source, previous: query.previous },
    { tailLines: query.tailLines ?? -1, sinceSeconds: query.sinceSeconds, maxBytes: 32 * 1024 * 1024 },
  ).replace('timestamps=true&', '')
  try {
    const { text } = await client.getText(path, 32 * 1024 * 1024)
    return formatLines(text, source, query)
  } catch (error) {
    // The API server answers 400 for a previous log that does not exist.
    if (query.previous && error instanceof ApiError && error.status === 400) throw noPreviousError(source)
    throw error
  }
}

/**
 * Why a container's log could not be read, in one line: kubectl's words where the Pod's state explains it
 * (a container waiting to start has no log yet), else what the API server said. The run goes on with the
 * other containers.
 */
export function unreadableLogLine(source: LogSource, error: unknown, previous: boolean): string {
  const where = `container "${source.container}" in pod "${source.pod}"`
  const status = allContainerStatuses(source.podObject).find((s) => s.name === source.container)
  const reason = error instanceof ApiError ? error.message : error instanceof Error ? error.message : String(error)
  if (error instanceof ApiError && error.missing === 'object') return `pod "${source.pod}" was deleted while its logs were read (namespace ${source.namespace})`
  if (!previous && status?.state?.waiting && !status.lastState?.terminated)
    return `${where} is waiting to start: ${status.state.waiting.reason ?? 'no reason given'}${status.state.waiting.message ? ` (${status.state.waiting.message})` : ''}`
  if (previous && !status?.lastState?.terminated) return `previous terminated ${where} not found`
  return `cannot read the log of ${where}: ${reason}`
}

export function followLive(client: KubeClient, source: LogSource, query: LogQuery, write: (line: string) => void, signal: AbortSignal): Promise<void> {
  const path = `${logPath({ ...source, previous: false }, { tailLines: query.tailLines ?? 10, sinceSeconds: query.sinceSeconds, maxBytes: 1 << 30 })
    .replace('timestamps=true&', '')
    .replace(/&limitBytes=\d+/, '')}&follow=true`
  // Lines come one at a time: a PEM block or a validator key spread over them is masked through one state.
  const mask = new Redactor().stream()
  return client.stream(
    path,
    lineSplitter((line) => formatLines(line, source, query, mask).forEach(write)),
    signal,
  )
}
