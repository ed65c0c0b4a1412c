import type { ScenarioCtx } from '../types.js'
import { Api, type KObject } from './api.js'
import type { LogLine } from './logfmt.js'
import { eventName, microTime, rfc3339 } from './util.js'

export interface ContainerLogs {
  current: LogLine[]
  previous?: LogLine[]
}

/** How logs and port-forwards reach the cluster (kwok Logs / PortForward CRs). */
export interface ClusterIO {
  setLogs(ns: string, pod: string, containers: Record<string, ContainerLogs>): Promise<void>
  forwardPort(ns: string, pod: string, podPort: number, targetPort: number): Promise<void>
  /** Serve a real process's CRI-format log file as a container's log. */
  serveLogFile?(ns: string, pod: string, container: string, file: string): Promise<void>
}

export interface EventSpec {
  involved: KObject
  reason: string
  message: string
  type?: 'Normal' | 'Warning'
  count?: number
  first?: Date
  last?: Date
  /** source.component (and reportingComponent). */
  component: string
  /** source.host (kubelet: the node name). */
  host?: string
  fieldPath?: string
}

export interface EventV1Spec {
  regarding: KObject
  reason: string
  note: string
  action: string
  type?: 'Normal' | 'Warning'
  at: Date
  reportingController: string
  reportingInstance: string
  /** Set for an isomorphic event seen several times. */
  series?: { count: number; lastObservedTime: Date }
  fieldPath?: string
}

/** Per-scenario seeding helper: one namespace, one clock. */
export class Seeder {
  constructor(
    readonly ctx: ScenarioCtx,
    readonly api: Api,
    readonly io: ClusterIO,
    /** The seeding clock: every timestamp of the scenario is relative to it. */
    readonly now: Date,
    readonly ns: string,
  ) {}

  create<T extends KObject>(obj: T): Promise<T> {
    return this.api.upsert(obj)
  }

  createAll(objs: KObject[]): Promise<KObject[]> {
    return Promise.all(objs.map((o) => this.api.upsert(o)))
  }

  status<T extends KObject>(obj: KObject, status: unknown): Promise<T> {
    return this.api.patchStatus<T>(obj, status)
  }

  /** A core/v1 Event (the shape EventRecorder / kubelet write). */
  event(e: EventSpec): Promise<KObject> {
    return this.api.upsert(coreEvent(e))
  }

  /** An events.k8s.io/v1 Event (eventTime set, lastTimestamp null when read as core/v1). */
  eventV1(e: EventV1Spec): Promise<KObject> {
    return this.api.upsert(eventsV1(e))
  }

  logs(pod: string, containers: Record<string, ContainerLogs>): Promise<void> {
    return this.io.setLogs(this.ns, pod, containers)
  }

  forward(pod: string, podPort: number, targetPort: number): Promise<void> {
    return this.io.forwardPort(this.ns, pod, podPort, targetPort)
  }
}

export function coreEvent(e: EventSpec): KObject {
  const ns = e.involved.metadata.namespace ?? 'default'
  const last = e.last ?? e.first ?? new Date()
  const first = e.first ?? last
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: eventName(e.involved.metadata.name, first, `${e.reason}/${e.message}/${e.fieldPath ?? ''}`),
      namespace: ns,
    },
    involvedObject: {
      apiVersion: e.involved.apiVersion,
      kind: e.involved.kind,
      name: e.involved.metadata.name,
      namespace: ns,
      uid: e.involved.metadata.uid,
      resourceVersion: e.involved.metadata.resourceVersion,
      ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
    },
    reason: e.reason,
    message: e.message,
    type: e.type ?? 'Normal',
    count: e.count ?? 1,
    firstTimestamp: rfc3339(first),
    lastTimestamp: rfc3339(last),
    source: { component: e.component, ...(e.host ? { host: e.host } : {}) },
    reportingComponent: e.component,
    reportingInstance: e.host ?? '',
  }
}

export function eventsV1(e: EventV1Spec): KObject {
  const ns = e.regarding.metadata.namespace ?? 'default'
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: {
      name: eventName(e.regarding.metadata.name, e.at, `${e.reason}/${e.note}/v1`),
      namespace: ns,
    },
    eventTime: microTime(e.at),
    reportingController: e.reportingController,
    reportingInstance: e.reportingInstance,
    action: e.action,
    reason: e.reason,
    note: e.note,
    type: e.type ?? 'Normal',
    regarding: {
      apiVersion: e.regarding.apiVersion,
      kind: e.regarding.kind,
      name: e.regarding.metadata.name,
      namespace: ns,
      uid: e.regarding.metadata.uid,
      resourceVersion: e.regarding.metadata.resourceVersion,
      ...(e.fieldPath ? { fieldPath: e.fieldPath } : {}),
    },
    ...(e.series ? { series: { count: e.series.count, lastObservedTime: microTime(e.series.lastObservedTime) } } : {}),
  }
}
