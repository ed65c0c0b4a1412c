import net from 'node:net'
import tls from 'node:tls'
import { onInterrupt } from '../util/cleanup.js'
import type { Credentials } from './auth.js'

/** Where a pod-port request goes: the API server's port-forward subresource of one Pod port. */
export interface PodPort {
  server: string
  credentials: Credentials
  namespace: string
  pod: string
  port: number
}

export interface PodAnswer {
  status: number
  contentType: string
  body: Buffer
  /** The answer was longer than maxBytes and was cut there. */
  truncated: boolean
}

/** The API server refused the port-forward (RBAC): the caller reports it as a read it could not make. */
export class PortForwardRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

const DATA = 0
const ERROR = 1

/** TLS sessions per API server: the probe's later connections resume instead of a full handshake. */
const sessions = new Map<string, Buffer>()

/** Calls in flight at once over every Pod port of a run, each on its own port-forward: as many as the API client sends. */
export const MAX_PARALLEL_FORWARDS = 32
/** Open but idle port-forwards kept for later reads; past this many, the one idle longest is closed. */
const MAX_IDLE_FORWARDS = 64
/** A forward idle this long is not used again. */
const MAX_IDLE_MS = 5000

export interface PodHttpOptions {
  server: string
  credentials: Credentials
  timeoutMs: number
  /** Called once per port-forward opened (--debug accounting). */
  onForward?: (namespace: string, pod: string, port: number) => void
  /** Called when a call's answers are in, with how long they took (--debug timings). */
  onAnswers?: (target: string, paths: string[], ms: number, failure?: string) => void
}

/**
 * HTTP GETs to Pod ports for one run, each Pod port through one port-forward kept open and reused: a node's
 * /status and /net_info, its second reading, the commits of the signing read and the Cosmos SDK queries all go
 * over the same forwarded connection (HTTP/1.1 keep-alive, each call's requests pipelined), one call after the
 * other. At most MAX_PARALLEL_FORWARDS calls are in flight over the whole run; close() ends every forward.
 */
export class PodHttpPool {
  /** Port-forwards opened so far. */
  forwards = 0
  private readonly ports = new Map<string, { forward?: ForwardedPort; queue: Promise<unknown> }>()
  private readonly idle = new Set<string>()
  private readonly slots = slotLimiter(MAX_PARALLEL_FORWARDS)
  /** Registered with the first forward: until one is open nothing needs undoing, and Ctrl-C ends the run at once. */
  private release?: () => void

  constructor(private readonly options: PodHttpOptions) {}

  /** Each path's answer or the error that stood in its way; a refused port-forward rejects the whole call. */
  get = (namespace: string, pod: string, port: number, paths: string[], maxBytes: number): Promise<(PodAnswer | Error)[]> => {
    const key = `${namespace}/${pod}:${port}`
    let entry = this.ports.get(key)
    if (!entry) this.ports.set(key, (entry = { queue: Promise.resolve() }))
    const run = () => this.slots(() => this.ask(entry, key, { namespace, pod, port }, paths, maxBytes))
    const answered = entry.queue.then(run, run)
    entry.queue = answered.catch(() => undefined)
    return answered
  }

  close(): void {
    this.release?.()
    this.release = undefined
    this.destroyAll()
  }

  private async ask(
    entry: { forward?: ForwardedPort },
    key: string,
    where: { namespace: string; pod: string; port: number },
    paths: string[],
    maxBytes: number,
  ): Promise<(PodAnswer | Error)[]> {
    this.idle.delete(key)
    let forward = entry.forward?.usable ? entry.forward : undefined
    const reused = forward !== undefined
    for (;;) {
      if (!forward) {
        this.release ??= onInterrupt(() => this.destroyAll())
        this.forwards++
        this.options.onForward?.(where.namespace, where.pod, where.port)
        forward = new ForwardedPort({ ...where, server: this.options.server, credentials: this.options.credentials })
      }
      entry.forward = forward
      const started = Date.now()
      try {
        const answers = await forward.request(paths, { timeoutMs: this.options.timeoutMs, maxBytes })
        this.options.onAnswers?.(key, paths, Date.now() - started)
        if (forward.usable) this.keepIdle(key)
        else entry.forward = undefined
        return answers
      } catch (error) {
        this.options.onAnswers?.(key, paths, Date.now() - started, (error as Error).message)
        entry.forward = undefined
        // An idle forward the Pod's server closed meanwhile (keep-alive timeout) answers nothing: asked once more on a new one.
        if (reused && forward.reusedAndSilent && !(error instanceof PortForwardRefused)) {
          forward = undefined
          continue
        }
        throw error
      }
    }
  }

  private keepIdle(key: string): void {
    this.idle.add(key)
    if (this.idle.size <= MAX_IDLE_FORWARDS) return
    const oldest = this.idle.values().next().value!
    this.idle.delete(oldest)
    this.ports.get(oldest)?.forward?.destroy()
  }

  private destroyAll(): void {
    for (const entry of this.ports.values()) entry.forward?.destroy()
    this.idle.clear()
  }
}

/** What a Pod's TCP port sent first through a port-forward within the time allowed. */
export type FirstBytes = { bytes: number; afterMs: number } | { timedOut: true } | { closed: true; error?: string }

/** One GET through a port-forward opened for it and closed once answered. */
export async function podGetOnce(target: PodPort, path: string, options: { timeoutMs: number; maxBytes: number }): Promise<PodAnswer | Error> {
  const forward = new ForwardedPort(target)
  const release = onInterrupt(() => forward.destroy())
  try {
    const [answer] = await forward.request([path], options)
    return answer
  } catch (error) {
    return error as Error
  } finally {
    release()
    forward.destroy()
  }
}

/** Open a port-forward to a Pod port and wait for its first bytes (a bare connection is not an answer). */
export async function podFirstBytes(target: PodPort, timeoutMs: number): Promise<FirstBytes> {
  const forward = new ForwardedPort(target)
  const release = onInterrupt(() => forward.destroy())
  try {
    return await forward.firstBytes(timeoutMs)
  } finally {
    release()
  }
}

/** Runs at most `slots` of the given tasks at once, in the order they came. */
function slotLimiter(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  const waiting: (() => void)[] = []
  let free = slots
  return async (task) => {
    if (free === 0) await new Promise<void>((start) => waiting.push(start))
    else free--
    try {
      return await task()
    } finally {
      const next = waiting.shift()
      if (next) next()
      else free++
    }
  }
}

/**
 * One Pod port through the API server's port-forward over a WebSocket (channel protocol v4: a channel byte
 * before each message, a two-byte port first on each channel), the way kubectl did before SPDY tunnelling.
 * A few dozen lines here instead of @kubernetes/client-node, whose import alone costs about half a second:
 * more than the chain probe is allowed to add to a run. The forwarded connection carries one call's pipelined
 * requests at a time, and stays open for the next call while every answer so far came whole.
 */
class ForwardedPort {
  private readonly socket: net.Socket
  private readonly secure: boolean
  private pending = Buffer.alloc(0)
  private upgraded = false
  private ended = false
  private errorText = ''
  private readonly seenPort = new Set<number>()
  private call?: { paths: string[]; maxBytes: number; data: Buffer; finish: (reason?: string) => void }
  private refusal?: Error
  /** Set by firstBytes: told of the first data and of the end. */
  private watch?: { data: (bytes: number) => void; end: (reason?: string) => void }
  private calls = 0
  private lastAnswer = 0
  /** The last call was on a forward used before, and nothing at all came back. */
  reusedAndSilent = false

  constructor(target: PodPort) {
    const url = new URL(target.server)
    this.secure = url.protocol === 'https:'
    const port = Number(url.port || (this.secure ? 443 : 80))
    const { ca, cert, key, rejectUnauthorized, servername } = target.credentials
    this.socket = this.secure
      ? tls.connect({
          host: url.hostname,
          port,
          ca,
          cert,
          key,
          rejectUnauthorized,
          servername: servername ?? (net.isIP(url.hostname) ? undefined : url.hostname),
          ALPNProtocols: ['http/1.1'],
          session: sessions.get(target.server),
        })
      : net.connect({ host: url.hostname, port })
    this.socket.on('session', (session: Buffer) => sessions.set(target.server, session))
    const wsKey = process.getBuiltinModule('node:crypto').randomBytes(16).toString('base64')
    const headers = Object.entries(target.credentials.headers).map(([name, value]) => `${name}: ${value}\r\n`)
    const request =
      `GET /api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward?ports=${target.port} HTTP/1.1\r\n` +
      `Host: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n${headers.join('')}\r\n`
    this.socket.once(this.secure ? 'secureConnect' : 'connect', () => this.socket.write(request))
    this.socket.on('error', (error) => this.end(error.message))
    this.socket.on('end', () => this.end())
    this.socket.on('close', () => this.end())
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk))
  }

  /**
   * Whether the next call may use this forward: open, every answer so far whole, nothing on the error channel, and
   * not idle long enough for the Pod's server to have closed its side (CometBFT's RPC closes idle connections after 10 s).
   */
  get usable(): boolean {
    return !this.ended && !this.refusal && this.errorText === '' && this.call === undefined && Date.now() - this.lastAnswer < MAX_IDLE_MS
  }

  destroy(): void {
    this.ended = true
    // A socket destroyed with a write still in flight makes Node build (and format) an error nobody
    // reads when the write completes, at the end of a short run; a pending write ends first.
    if (this.socket.writableLength > 0) this.socket.destroySoon()
    else this.socket.destroy()
  }

  request(paths: string[], options: { timeoutMs: number; maxBytes: number }): Promise<(PodAnswer | Error)[]> {
    if (this.refusal) return Promise.reject(this.refusal)
    const reused = this.calls++ > 0
    this.reusedAndSilent = false
    this.socket.ref()
    return new Promise((resolve, reject) => {
      const call = { paths, maxBytes: options.maxBytes, data: Buffer.alloc(0), finish: (reason?: string) => finish(reason) }
      const timer = setTimeout(() => finish(`no answer within ${options.timeoutMs / 1000}s`), options.timeoutMs)
      /** Whatever has arrived, per path; `reason` stands in for the answers that did not. */
      const finish = (reason = 'the connection closed before the Pod port answered') => {
        clearTimeout(timer)
        this.call = undefined
        this.lastAnswer = Date.now()
        // An answer cut short, or one still arriving, would be read as the next call's: such a forward is not used again.
        if (completeAnswers(call.data) < paths.length || answersEnd(call.data) !== call.data.length) this.ended = true
        if (this.ended) this.destroy()
        else this.socket.unref()
        if (this.refusal) return reject(this.refusal)
        if (call.data.length === 0) {
          this.reusedAndSilent = reused
          return reject(new Error(this.errorText.trim() || reason))
        }
        const answers: (PodAnswer | Error)[] = splitAnswers(call.data, options.maxBytes)
        while (answers.length < paths.length) answers.push(new Error(this.errorText.trim() || reason))
        resolve(answers)
      }
      this.call = call
      if (this.ended) return finish()
      if (this.upgraded) this.send(paths)
    })
  }

  private send(paths: string[]): void {
    // HTTP/1.1 keep-alive: a long answer comes chunked, so its end is seen without waiting for the forward to close.
    const gets = paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`)
    this.socket.write(frame(Buffer.concat([Buffer.from([DATA]), Buffer.from(gets.join(''))])))
  }

  private end(reason?: string): void {
    this.watch?.end(reason)
    if (this.ended && !this.call) return
    this.ended = true
    this.call?.finish(reason)
  }

  /** Wait for the Pod port's first bytes: how many came first, or why none did (refused, closed, error channel). */
  firstBytes(timeoutMs: number): Promise<FirstBytes> {
    const started = Date.now()
    return new Promise((resolve) => {
      const done = (result: FirstBytes) => {
        clearTimeout(timer)
        this.watch = undefined
        this.destroy()
        resolve(result)
      }
      const timer = setTimeout(() => done({ timedOut: true }), timeoutMs)
      this.watch = {
        data: (bytes) => done({ bytes, afterMs: Date.now() - started }),
        end: (reason) => done({ closed: true, error: this.refusal?.message ?? (this.errorText.trim() || reason) }),
      }
    })
  }

  private receive(chunk: Buffer): void {
    this.pending = Buffer.concat([this.pending, chunk])
    if (!this.upgraded) {
      const end = this.pending.indexOf('\r\n\r\n')
      if (end < 0) return
      const head = this.pending.subarray(0, end).toString('latin1')
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
      if (status !== 101) {
        const body = this.pending.subarray(end + 4).toString('utf8')
        const quoted = /"message":("(?:[^"\\]|\\.)*")/.exec(body)?.[1]
        const message = quoted ? (JSON.parse(quoted) as string) : head.split('\r\n')[0]
        this.refusal = status === 401 || status === 403 ? new PortForwardRefused(status, message) : new Error(`port-forward: HTTP ${status}: ${message}`)
        return this.end()
      }
      this.upgraded = true
      this.pending = this.pending.subarray(end + 4)
      if (this.call) this.send(this.call.paths)
    }
    for (;;) {
      const parsed = readFrame(this.pending)
      if (!parsed) return
      this.pending = this.pending.subarray(parsed.size)
      if (parsed.opcode === 8) return this.end()
      if (parsed.opcode !== 1 && parsed.opcode !== 2) continue
      const channel = parsed.payload[0]
      let payload = parsed.payload.subarray(1)
      if (!this.seenPort.has(channel)) {
        this.seenPort.add(channel)
        payload = payload.subarray(2)
      }
      if (channel === ERROR) {
        this.errorText += payload.toString('utf8')
        // The Pod side failed (nothing listens, the port is not there): a watcher hears it now.
        if (this.errorText.trim()) this.watch?.end()
      } else if (channel === DATA && payload.length > 0 && this.watch) this.watch.data(payload.length)
      else if (channel === DATA && payload.length > 0) {
        const call = this.call
        // Data nobody asked for: the forward's stream is out of step, not to be used again.
        if (!call) {
          this.ended = true
          continue
        }
        call.data = Buffer.concat([call.data, payload])
        if (call.data.length > call.maxBytes || completeAnswers(call.data) >= call.paths.length) call.finish()
      }
    }
  }
}

/** A masked client frame (RFC 6455 §5.3: every client frame is masked). */
function frame(payload: Buffer): Buffer {
  const mask = process.getBuiltinModule('node:crypto').randomBytes(4)
  const length = payload.length
  const header = length < 126 ? Buffer.from([0x82, 0x80 | length]) : Buffer.from([0x82, 0x80 | 126, length >> 8, length & 0xff])
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]))
  return Buffer.concat([header, mask, masked])
}

function readFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
  if (buffer.length < 2) return undefined
  const opcode = buffer[0] & 0x0f
  let length = buffer[1] & 0x7f
  let offset = 2
  if (length === 126) {
    if (buffer.length < 4) return undefined
    length = buffer.readUInt16BE(2)
    offset = 4
  } else if (length === 127) {
    if (buffer.length < 10) return undefined
    length = Number(buffer.readBigUInt64BE(2))
    offset = 10
  }
  if (buffer.length < offset + length) return undefined
  return { opcode, payload: buffer.subarray(offset, offset + length), size: offset + length }
}

/** Where the answer starting at `offset` ends, when all of it is in (Content-Length reached, or its last chunk come). */
function answerEnd(raw: Buffer, offset: number): number | undefined {
  const end = raw.indexOf('\r\n\r\n', offset)
  if (end < 0) return undefined
  const head = raw.subarray(offset, end).toString('latin1')
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1]
  if (length !== undefined) return raw.length - end - 4 >= Number(length) ? end + 4 + Number(length) : undefined
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return undefined
  const last = raw.indexOf('\r\n0\r\n\r\n', end)
  return last < 0 ? undefined : last + 7
}

function completeAnswers(raw: Buffer): number {
  let count = 0
  for (let offset = 0, end; offset < raw.length && (end = answerEnd(raw, offset)) !== undefined; offset = end) count++
  return count
}

/** Where the last whole answer ends (0 with none): equal to the length when nothing of another answer follows. */
function answersEnd(raw: Buffer): number {
  let offset = 0
  for (let end; offset < raw.length && (end = answerEnd(raw, offset)) !== undefined;) offset = end
  return offset
}

/** The answers in order; the last may be cut short (truncated) or not HTTP at all (status 0). */
function splitAnswers(raw: Buffer, maxBytes: number): PodAnswer[] {
  const answers: PodAnswer[] = []
  let offset = 0
  while (offset < raw.length) {
    const end = answerEnd(raw, offset)
    answers.push(parseHttp(raw.subarray(offset, end), end === undefined && raw.length > maxBytes, maxBytes))
    if (end === undefined) break
    offset = end
  }
  return answers
}

function parseHttp(raw: Buffer, truncated: boolean, maxBytes: number): PodAnswer {
  const end = raw.indexOf('\r\n\r\n')
  if (end < 0 || !raw.subarray(0, 5).equals(Buffer.from('HTTP/'))) return { status: 0, contentType: '', body: raw.subarray(0, maxBytes), truncated }
  const head = raw.subarray(0, end).toString('latin1')
  const status = Number(/^HTTP\/\d\.\d (\d{3})/.exec(head)?.[1] ?? 0)
  const contentType = /\r\ncontent-type:\s*([^\r\n]*)/i.exec(head)?.[1] ?? ''
  const body = raw.subarray(end + 4)
  const chunked = /\r\ntransfer-encoding:\s*chunked/i.test(head)
  return { status, contentType, body: (chunked ? unchunk(body) : body).subarray(0, maxBytes), truncated }
}

/** Chunked transfer coding (RFC 9112 §7.1); a cut answer keeps the chunks that arrived. */
function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = []
  let offset = 0
  for (;;) {
    const lineEnd = body.indexOf('\r\n', offset)
    if (lineEnd < 0) break
    const size = parseInt(body.subarray(offset, lineEnd).toString('latin1'), 16)
    if (!(size > 0)) break
    parts.push(body.subarray(lineEnd + 2, Math.min(body.length, lineEnd + 2 + size)))
    offset = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}
