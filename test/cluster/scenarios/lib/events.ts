/** Event helpers: what cosmopilot's recorders, the kubelet and the scheduler write. */
import type { KObject } from './api.js'
import type { Seeder } from './seeder.js'
import { ago } from './util.js'

export interface EvOpts {
  type?: 'Normal' | 'Warning'
  count?: number
  /** Seconds before the seeding clock. */
  firstAgo?: number
  lastAgo?: number
}

/** Event on a ChainNode from `chainnode-controller` (facts §3.1). */
export function cnEvent(s: Seeder, cn: KObject, reason: string, message: string, o: EvOpts = {}): Promise<KObject> {
  const last = ago(s.now, o.lastAgo ?? o.firstAgo ?? 30)
  const first = ago(s.now, o.firstAgo ?? o.lastAgo ?? 30)
  return s.event({
    involved: cn,
    reason,
    message,
    type: o.type ?? 'Normal',
    count: o.count ?? 1,
    first,
    last,
    component: 'chainnode-controller',
  })
}

/** Event on a ChainNodeSet from `chainnodeset-controller` (facts §3.2). */
export function setEvent(s: Seeder, set: KObject, reason: string, message: string, o: EvOpts = {}): Promise<KObject> {
  return s.event({
    involved: set,
    reason,
    message,
    type: o.type ?? 'Normal',
    count: o.count ?? 1,
    first: ago(s.now, o.firstAgo ?? o.lastAgo ?? 30),
    last: ago(s.now, o.lastAgo ?? o.firstAgo ?? 30),
    component: 'chainnodeset-controller',
  })
}

export function fieldPath(container: string, init = false): string {
  return init ? `spec.initContainers{${container}}` : `spec.containers{${container}}`
}

/** A kubelet event on a pod (core/v1, source.host = the pod's node). */
export function kubeletEvent(
  s: Seeder,
  pod: KObject,
  reason: string,
  message: string,
  o: EvOpts & { container?: string; init?: boolean } = {},
): Promise<KObject> {
  const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? s.ctx.kwokNode
  return s.event({
    involved: pod,
    reason,
    message,
    type: o.type ?? 'Normal',
    count: o.count ?? 1,
    first: ago(s.now, o.firstAgo ?? o.lastAgo ?? 30),
    last: ago(s.now, o.lastAgo ?? o.firstAgo ?? 30),
    component: 'kubelet',
    host: node,
    ...(o.container ? { fieldPath: fieldPath(o.container, o.init) } : {}),
  })
}

/** default-scheduler's `Scheduled`, events.k8s.io style (eventTime, no lastTimestamp). */
export function scheduledEvent(s: Seeder, pod: KObject, secondsAgo: number): Promise<KObject> {
  const node = (pod.spec as { nodeName?: string } | undefined)?.nodeName ?? s.ctx.kwokNode
  return s.eventV1({
    regarding: pod,
    reason: 'Scheduled',
    note: `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${node}`,
    action: 'Binding',
    type: 'Normal',
    at: ago(s.now, secondsAgo),
    reportingController: 'default-scheduler',
    reportingInstance: 'default-scheduler-control-plane-0',
  })
}

interface CSpec {
  name: string
  image: string
  init?: boolean
}

function podContainers(pod: KObject): CSpec[] {
  const spec = pod.spec as { initContainers?: { name: string; image: string }[]; containers: { name: string; image: string }[] }
  return [...(spec.initContainers ?? []).map((c) => ({ ...c, init: true })), ...spec.containers.map((c) => ({ ...c, init: false }))]
}

/** Scheduled + Pulled/Created/Started for every container of a pod that came up normally. */
export async function podStartEvents(s: Seeder, pod: KObject, startedAgo: number, skip: string[] = []): Promise<void> {
  const work: Promise<unknown>[] = [scheduledEvent(s, pod, startedAgo + 2)]
  let t = startedAgo
  for (const c of podContainers(pod)) {
    if (skip.includes(c.name)) continue
    const o = { container: c.name, init: c.init }
    work.push(
      kubeletEvent(s, pod, 'Pulled', `Container image "${c.image}" already present on machine`, { ...o, firstAgo: t }),
      kubeletEvent(s, pod, 'Created', `Created container: ${c.name}`, { ...o, firstAgo: t }),
      kubeletEvent(s, pod, 'Started', `Started container ${c.name}`, { ...o, firstAgo: t }),
    )
    t = Math.max(0, t - 1)
  }
  await Promise.all(work)
}
