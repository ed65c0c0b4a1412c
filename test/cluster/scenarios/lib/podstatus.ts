/**
 * Pod status documents for pods on the unmanaged node (no kubelet: the status is whatever we
 * patch). Shapes follow what a kubelet reports (containerd runtime).
 */
import { rfc3339, sha256Hex } from './util.js'

export type ContainerState =
  | { running: { startedAt: Date } }
  | { waiting: { reason: string; message?: string } }
  | { terminated: { exitCode: number; reason: string; message?: string; startedAt: Date; finishedAt: Date } }

export interface ContainerStatusSpec {
  name: string
  image: string
  state: ContainerState
  lastState?: ContainerState
  ready?: boolean
  restartCount?: number
  /** Whether the image was pulled (imageID/containerID present). */
  pulled?: boolean
}

function stateDoc(s: ContainerState | undefined): Record<string, unknown> {
  if (!s) return {}
  if ('running' in s) return { running: { startedAt: rfc3339(s.running.startedAt) } }
  if ('waiting' in s) return { waiting: { reason: s.waiting.reason, ...(s.waiting.message ? { message: s.waiting.message } : {}) } }
  const t = s.terminated
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      ...(t.message ? { message: t.message } : {}),
      startedAt: rfc3339(t.startedAt),
      finishedAt: rfc3339(t.finishedAt),
      containerID: `containerd://${sha256Hex(`cid/${t.startedAt.toISOString()}/${t.exitCode}`)}`,
    },
  }
}

export function imageID(image: string): string {
  const repo = image.replace(/:[^/:]+$/, '')
  return `${repo}@sha256:${sha256Hex(`image/${image}`)}`
}

export function containerStatus(c: ContainerStatusSpec, podUid: string): Record<string, unknown> {
  const pulled = c.pulled ?? !('waiting' in c.state && /Image|ErrImage/.test(c.state.waiting.reason))
  const started = 'running' in c.state
  return {
    name: c.name,
    image: c.image,
    imageID: pulled ? imageID(c.image) : '',
    ...(pulled && !('waiting' in c.state) ? { containerID: `containerd://${sha256Hex(`cid/${podUid}/${c.name}/${c.restartCount ?? 0}`)}` } : {}),
    ready: c.ready ?? false,
    restartCount: c.restartCount ?? 0,
    started,
    state: stateDoc(c.state),
    lastState: stateDoc(c.lastState),
  }
}

export interface PodStatusSpec {
  phase: 'Pending' | 'Running' | 'Failed' | 'Succeeded'
  podUid: string
  startTime: Date
  podIP?: string
  hostIP?: string
  init?: ContainerStatusSpec[]
  containers: ContainerStatusSpec[]
  /** Initialized condition (all regular init containers done). */
  initialized: boolean
  /** Ready / ContainersReady. */
  ready: boolean
  /** PodReadyToStartContainers (sandbox up). */
  sandboxReady?: boolean
  reason?: string
  message?: string
  qosClass?: string
  /** When the last condition flip happened. */
  transitionAt?: Date
}

export function podStatus(p: PodStatusSpec): Record<string, unknown> {
  const t = rfc3339(p.transitionAt ?? p.startTime)
  const start = rfc3339(p.startTime)
  const notReady = [...p.containers].filter((c) => !c.ready).map((c) => c.name)
  const pendingInit = (p.init ?? []).filter((c) => !('terminated' in c.state && c.state.terminated.exitCode === 0) && !('running' in c.state))
  const conditions = [
    { type: 'PodReadyToStartContainers', status: p.sandboxReady === false ? 'False' : 'True', lastProbeTime: null, lastTransitionTime: start },
    p.initialized
      ? { type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: start }
      : {
          type: 'Initialized',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: t,
          reason: 'ContainersNotInitialized',
          message: `containers with incomplete status: [${pendingInit.map((c) => c.name).join(' ')}]`,
        },
    p.ready
      ? { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: t }
      : {
          type: 'Ready',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: t,
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${notReady.join(' ')}]`,
        },
    p.ready
      ? { type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: t }
      : {
          type: 'ContainersReady',
          status: 'False',
          lastProbeTime: null,
          lastTransitionTime: t,
          reason: 'ContainersNotReady',
          message: `containers with unready status: [${notReady.join(' ')}]`,
        },
    { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: start },
  ]
  return {
    phase: p.phase,
    conditions,
    hostIP: p.hostIP ?? '127.0.0.1',
    hostIPs: [{ ip: p.hostIP ?? '127.0.0.1' }],
    ...(p.podIP ? { podIP: p.podIP, podIPs: [{ ip: p.podIP }] } : {}),
    startTime: start,
    ...(p.reason ? { reason: p.reason } : {}),
    ...(p.message ? { message: p.message } : {}),
    initContainerStatuses: (p.init ?? []).map((c) => containerStatus(c, p.podUid)),
    containerStatuses: p.containers.map((c) => containerStatus(c, p.podUid)),
    qosClass: p.qosClass ?? 'Burstable',
  }
}

interface PodSpecLike {
  initContainers?: { name: string; image: string; restartPolicy?: string }[]
  containers: { name: string; image: string }[]
}

export interface RunningOptions {
  now: Date
  /** Seconds since the pod started. */
  ageSeconds: number
  podIP: string
  ready?: boolean
  /** Containers (main) reported not ready. */
  notReady?: string[]
  /** Restart counts of restartable init containers (sidecars). */
  sidecarRestarts?: Record<string, number>
}

/** A pod that started `ageSeconds` ago and runs normally (regular init done, sidecars and mains running). */
export function runningPodStatus(pod: { spec?: unknown; metadata: { uid?: string } }, o: RunningOptions): Record<string, unknown> {
  const spec = pod.spec as PodSpecLike
  const start = new Date(o.now.getTime() - o.ageSeconds * 1000)
  const at = (s: number) => new Date(start.getTime() + s * 1000)
  let t = 1
  const init: ContainerStatusSpec[] = (spec.initContainers ?? []).map((c) => {
    t += 2
    if (c.restartPolicy === 'Always') {
      return {
        name: c.name,
        image: c.image,
        ready: true,
        restartCount: o.sidecarRestarts?.[c.name] ?? 0,
        state: { running: { startedAt: at(t) } },
      }
    }
    return {
      name: c.name,
      image: c.image,
      ready: false,
      state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: at(t - 1), finishedAt: at(t) } },
    }
  })
  const notReady = new Set(o.notReady ?? [])
  const ready = (o.ready ?? true) && notReady.size === 0
  const containers: ContainerStatusSpec[] = spec.containers.map((c) => ({
    name: c.name,
    image: c.image,
    ready: (o.ready ?? true) && !notReady.has(c.name),
    state: { running: { startedAt: at(t + 1) } },
  }))
  return podStatus({
    phase: 'Running',
    podUid: pod.metadata.uid ?? '',
    startTime: start,
    podIP: o.podIP,
    init,
    containers,
    initialized: true,
    ready,
    transitionAt: ready ? at(t + 40) : new Date(o.now.getTime() - 60_000),
  })
}
