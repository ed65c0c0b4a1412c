import { onInterrupt } from '../util/cleanup.js'
import type { Credentials } from './auth.js'
import { sessionToResume } from './tls-reuse.js'
import { PortForwardRefused, Tunnel, type FirstBytes, type PodAnswer, type PortStream } from './port-tunnel.js'

export { PortForwardRefused, type FirstBytes, type PodAnswer } from './port-tunnel.js'

/** Where a pod-port request goes: the API server's port-forward subresource of one Pod port. */
export interface PodPort {
  server: string
  credentials: Credentials
  namespace: string
  pod: string
  port: number
}

/** Pods whose calls are in flight at once over a run, each Pod's over its one port-forward: as many as the API client sends. */
export const MAX_PARALLEL_FORWARDS = 32
/** A second try waits this long after the upgrade for the Pod side's words before asking (PortStream.holdMs). */
const RETRY_HOLD_MS = 100
/** Open but idle Pod ports kept for later reads; past this many, the one idle longest is closed. */
const MAX_IDLE_FORWARDS = 64

export interface PodHttpOptions {
  server: string
  credentials: Credentials
  timeoutMs: number
  /** Called once per port-forward opened, with the Pod ports it carries (--debug accounting). */
  /** again: a port asked once more, its first forward having closed with no answer and no word from the Pod side. */
  onForward?: (namespace: string, pod: string, ports: number[], again?: boolean) => void
  /** Called once a port-forward's TLS handshake is done: whether it resumed the session of an earlier connection. */
  onSecure?: (namespace: string, pod: string, resumed: boolean) => void
  /** Called when a call's answers are in, with how long they took (--debug timings). */
  onAnswers?: (target: string, paths: string[], ms: number, failure?: string) => void
}

type Where = { namespace: string; pod: string; port: number }
/** A Pod port's stream for the next call, the calls queued on it, and a stream opened ahead of its first call. */
type PortEntry = { stream?: PortStream; queue: Promise<unknown>; warming?: Promise<PortStream> }

/**
 * HTTP GETs to Pod ports for one run, each Pod port over one stream kept open and reused: a node's /status and
 * /net_info, its second reading, the commits of the signing read and the Cosmos SDK queries all go over the same
 * forwarded connection (HTTP/1.1 keep-alive, each call's requests pipelined), one call after the other. The ports of
 * one Pod asked for together (its RPC and node-utils) share one port-forward connection. At most
 * MAX_PARALLEL_FORWARDS Pods have calls in flight over the whole run; close() ends every forward.
 */
export class PodHttpPool {
  /** Pod ports forwarded so far. */
  forwards = 0
  /** Port-forward connections opened so far (each carries one or more Pod ports). */
  connections = 0
  private readonly ports = new Map<string, PortEntry>()
  private readonly idle = new Set<string>()
  private readonly tunnels = new Set<Tunnel>()
  /** Pod ports to open in this turn of the event loop, per Pod: one connection carries them all. */
  private readonly opening = new Map<string, { ports: number[]; tunnel: Promise<Tunnel> }>()
  private readonly slots = podLimiter(MAX_PARALLEL_FORWARDS)
  /** Registered with the first forward: until one is open nothing needs undoing, and Ctrl-C ends the run at once. */
  private release?: () => void

  constructor(private readonly options: PodHttpOptions) {}

  /** Each path's answer or the error that stood in its way; a refused port-forward rejects the whole call. */
  get = (namespace: string, pod: string, port: number, paths: string[], maxBytes: number): Promise<(PodAnswer | Error)[]> => {
    const key = `${namespace}/${pod}:${port}`
    let entry = this.ports.get(key)
    if (!entry) this.ports.set(key, (entry = { queue: Promise.resolve() }))
    const run = () => this.slots(`${namespace}/${pod}`, () => this.ask(entry, key, { namespace, pod, port }, paths, maxBytes))
    const answered = entry.queue.then(run, run)
    entry.queue = answered.catch(() => undefined)
    return answered
  }

  /**
   * Open the port-forward to a Pod port now, ahead of its first call: its connection and upgrade then overlap the reads
   * that name what to ask (the Pod lists). Nothing is sent until a call comes.
   */
  warm = (namespace: string, pod: string, port: number): void => {
    const key = `${namespace}/${pod}:${port}`
    if (this.ports.has(key)) return
    this.ports.set(key, { queue: Promise.resolve(), warming: this.open({ namespace, pod, port }) })
  }

  close(): void {
    this.release?.()
    this.release = undefined
    this.destroyAll()
  }

  private async ask(entry: PortEntry, key: string, where: Where, paths: string[], maxBytes: number): Promise<(PodAnswer | Error)[]> {
    this.idle.delete(key)
    let stream = entry.stream?.usable ? entry.stream : undefined
    if (entry.warming) {
      const warmed = await entry.warming
      entry.warming = undefined
      // A stream opened ahead carries the first call when still open, or when what closed it is the answer: the Pod
      // side's failure, a refusal. One that merely went away meanwhile is opened again.
      if (warmed.usable || warmed.told) stream = warmed
    }
    for (let retried = false; ; retried = true) {
      if (!stream) {
        stream = await this.open(where, retried)
        if (retried) stream.holdMs = RETRY_HOLD_MS
      }
      entry.stream = stream
      const started = Date.now()
      try {
        const answers = await stream.request(paths, { timeoutMs: this.options.timeoutMs, maxBytes })
        this.options.onAnswers?.(key, paths, Date.now() - started)
        if (stream.usable) this.keepIdle(key)
        else entry.stream = undefined
        return answers
      } catch (error) {
        this.options.onAnswers?.(key, paths, Date.now() - started, (error as Error).message)
        entry.stream = undefined
        // An idle stream the Pod's server closed meanwhile (keep-alive timeout), or a connection reset before anything
        // came, answers nothing: asked once more on a new one.
        if (!retried && stream.silentRetry && !(error instanceof PortForwardRefused)) {
          stream = undefined
          continue
        }
        throw error
      }
    }
  }

  /**
   * A new stream to a Pod port. The ports of the Pod asked for in the same turn of the event loop (the chain probe asks
   * for its RPC and node-utils at once) go into one port-forward: one connection, one upgrade, for the Pod.
   */
  private async open(where: Where, again = false): Promise<PortStream> {
    const podKey = `${where.namespace}/${where.pod}`
    let batch = this.opening.get(podKey)
    if (!batch) {
      const ports: number[] = []
      const tunnel = new Promise((resolve) => setImmediate(resolve)).then(async () => {
        // Ports asked for while the TLS session is on its way join this port-forward too.
        await sessionToResume(this.options.server, this.options.credentials)
        this.opening.delete(podKey)
        this.release ??= onInterrupt(() => this.destroyAll())
        const { server, credentials, onSecure } = this.options
        const opened = await Tunnel.open({
          ...where,
          ports,
          server,
          credentials,
          onSecure: onSecure && ((resumed) => onSecure(where.namespace, where.pod, resumed)),
        })
        this.connections++
        this.tunnels.add(opened)
        this.forwards += ports.length
        this.options.onForward?.(where.namespace, where.pod, ports, again)
        return opened
      })
      this.opening.set(podKey, (batch = { ports, tunnel }))
    }
    if (!batch.ports.includes(where.port)) batch.ports.push(where.port)
    const tunnel = await batch.tunnel
    return tunnel.streams.find((s) => s.port === where.port)!
  }

  private keepIdle(key: string): void {
    this.idle.add(key)
    if (this.idle.size <= MAX_IDLE_FORWARDS) return
    const oldest = this.idle.values().next().value!
    this.idle.delete(oldest)
    const entry = this.ports.get(oldest)
    entry?.stream?.destroy()
    if (entry) entry.stream = undefined
  }

  private destroyAll(): void {
    for (const tunnel of this.tunnels) tunnel.destroy()
    this.tunnels.clear()
    this.idle.clear()
  }
}

/** One GET through a port-forward opened for it and closed once answered. */
export async function podGetOnce(target: PodPort, path: string, options: { timeoutMs: number; maxBytes: number }): Promise<PodAnswer | Error> {
  const tunnel = await Tunnel.open({ ...target, ports: [target.port] })
  const release = onInterrupt(() => tunnel.destroy())
  try {
    const [answer] = await tunnel.streams[0].request([path], options)
    return answer
  } catch (error) {
    return error as Error
  } finally {
    release()
    tunnel.destroy()
  }
}

/** Open a port-forward to a Pod port and wait for its first bytes (a bare connection is not an answer). */
export async function podFirstBytes(target: PodPort, timeoutMs: number): Promise<FirstBytes> {
  const tunnel = await Tunnel.open({ ...target, ports: [target.port] })
  const release = onInterrupt(() => tunnel.destroy())
  try {
    return await tunnel.streams[0].firstBytes(timeoutMs)
  } finally {
    release()
  }
}

/**
 * Runs the calls of at most `slots` Pods at once, in the order they came: the calls of a Pod that holds a slot run
 * at once in it (they share its one port-forward), and a Pod given a slot starts every call it has waiting.
 */
function podLimiter(slots: number): <T>(pod: string, task: () => Promise<T>) => Promise<T> {
  const running = new Map<string, number>()
  const waiting = new Map<string, (() => void)[]>()
  let free = slots
  const startNext = () => {
    const next = waiting.entries().next().value
    if (!next) return void free++
    const [pod, starts] = next
    waiting.delete(pod)
    running.set(pod, starts.length)
    for (const start of starts) start()
  }
  return async (pod, task) => {
    const count = running.get(pod)
    if (count !== undefined) running.set(pod, count + 1)
    else if (free > 0) {
      free--
      running.set(pod, 1)
    } else {
      const starts = waiting.get(pod) ?? []
      waiting.set(pod, starts)
      await new Promise<void>((start) => starts.push(start))
    }
    try {
      return await task()
    } finally {
      const left = running.get(pod)! - 1
      if (left > 0) running.set(pod, left)
      else {
        running.delete(pod)
        startNext()
      }
    }
  }
}
