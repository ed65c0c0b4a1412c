import type { SnapshotIndex } from '../snapshot/index.js'
import { allContainerStatuses } from '../snapshot/node-layout.js'
import type { ObjectRef } from '../snapshot/types.js'
import { isoTime } from './time.js'
import type { RawEntry, TimelineLevel } from './types.js'
import type { ChainNode, ContainerStatus, Terminated } from '../snapshot/kinds.js'

/** What the Pod's status records of its life: creation, conditions, container starts, exits and restarts. */
export function podEntries(index: SnapshotIndex, node: ChainNode, now: string): RawEntry[] {
  const pod = index.podOf(node)
  if (!pod) return []
  const subject: ObjectRef = { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name }
  const entry = (at: string | undefined, kind: string, level: TimelineLevel, text: string): RawEntry[] => {
    const time = isoTime(at)
    return time ? [{ at: time, source: 'pod', kind, subject, level, text }] : []
  }
  const initNames = new Set((pod.status?.initContainerStatuses ?? []).map((s: ContainerStatus) => s.name))
  const out: RawEntry[] = [...entry(pod.metadata.creationTimestamp, 'pod-created', 'normal', `Pod created (uid ${pod.metadata.uid ?? '<none>'})`)]
  for (const condition of pod.status?.conditions ?? []) {
    if (condition.type !== 'Ready' && condition.type !== 'PodScheduled') continue
    const level = condition.status === 'True' ? 'normal' : 'warning'
    const why = condition.reason ? ` (${condition.reason}${condition.message ? `: ${condition.message}` : ''})` : ''
    out.push(...entry(condition.lastTransitionTime ?? undefined, `condition/${condition.type}`, level, `Pod ${condition.type}=${condition.status}${why}`))
  }
  for (const status of allContainerStatuses(pod)) {
    const what = initNames.has(status.name) ? `init container ${status.name}` : `container ${status.name}`
    const restarts = status.restartCount ?? 0
    const last = status.lastState?.terminated
    if (last) out.push(...entry(last.finishedAt ?? last.startedAt ?? undefined, 'container-exited', exitLevel(last), `${what} ${exitText(last)}`))
    const running = status.state?.running
    if (running)
      out.push(...entry(running.startedAt ?? undefined, 'container-started', 'normal', `${what} started${restarts > 0 ? ` (restart ${restarts})` : ''}`))
    const terminated = status.state?.terminated
    if (terminated) {
      out.push(...entry(terminated.startedAt ?? undefined, 'container-started', 'normal', `${what} started${restarts > 0 ? ` (restart ${restarts})` : ''}`))
      const finished = initNames.has(status.name) && terminated.exitCode === 0 ? `${what} finished (exit code 0)` : `${what} ${exitText(terminated)}`
      out.push(...entry(terminated.finishedAt ?? undefined, 'container-exited', exitLevel(terminated), finished))
    }
    const waiting = status.state?.waiting
    // A waiting state carries no time: it is what the Pod shows at collection.
    if (waiting?.reason && waiting.reason !== 'PodInitializing' && waiting.reason !== 'ContainerCreating')
      out.push(...entry(now, 'container-waiting', 'warning', `${what} waiting: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`))
  }
  return out
}

const exitLevel = (terminated: Terminated): TimelineLevel => (terminated.exitCode === 0 ? 'normal' : 'error')

function exitText(terminated: Terminated): string {
  const verb = terminated.exitCode === 0 ? 'exited' : 'failed'
  const detail = [terminated.reason, terminated.message].filter(Boolean).join(': ')
  return `${verb} (exit code ${terminated.exitCode ?? '?'}${detail ? `, ${detail}` : ''})`
}
