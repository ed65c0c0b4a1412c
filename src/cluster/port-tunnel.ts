import net from 'node:net'
import tls from 'node:tls'
import type { Credentials } from './auth.js'
import { keepSessions, sessionToResume, sharedTls } from './tls-reuse.js'

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

/** What a Pod's TCP port sent first through a port-forward within the time allowed. */
export type FirstBytes = { bytes: number; afterMs: number } | { timedOut: true } | { closed: true; error?: string }

/** Where a tunnel goes: the API server's port-forward subresource of one Pod, for one or more of its ports. */
export interface TunnelTarget {
  server: string
  credentials: Credentials
  namespace: string
  pod: string
  ports: number[]
  /** Told once the TLS handshake is done: whether it resumed an earlier connection's session (--debug accounting). */
  onSecure?: (resumed: boolean) => void
}

/** A stream idle this long is not used again. */
export const MAX_IDLE_MS = 5000

/** What a tunnel carries for one of its Pod ports: an HTTP caller (PortStream), or a local connection byte for byte. */
export interface TunnelPort {
  /** Nothing more goes over this port. */
  ended: boolean
  /** Waiting for the Pod side: the process waits for the connection meanwhile. */
  readonly busy: boolean
  /** The tunnel is upgraded: what waits to be sent goes now. */
  upgraded(): void
  /** Bytes from the Pod port. */
  data(payload: Buffer): void
  /** Text on the port's error channel: the Pod side failed. */
  errorData(text: string): void
  /** The connection ended (closed, refused, failed). */
  close(reason?: string): void
}

/** Makes the port objects of a tunnel, one per Pod port, in the order of the target's ports. */
export type TunnelPortOf<P extends TunnelPort> = (tunnel: Tunnel<P>, index: number, port: number) => P

/**
 * One port-forward to a Pod through the API server over a WebSocket (channel protocol v4, the way kubectl did before
 * SPDY tunnelling), carrying every port it was opened for: port i on channels 2i (data) and 2i+1 (error), each
 * channel's first message led by the port's two bytes. A fleet's node thus costs one connection for its RPC and
 * node-utils ports together. A few dozen lines here instead of @kubernetes/client-node, whose import alone costs
 * about half a second: more than the chain probe is allowed to add to a run.
 */
export class Tunnel<P extends TunnelPort = PortStream> {
  readonly streams: P[]
  private readonly socket: net.Socket
  private pending = Buffer.alloc(0)
  private upgraded = false
  private closed = false
  refusal?: Error
  private readonly seenChannel = new Set<number>()

  /** A tunnel whose handshake resumes the first connection's TLS session, once that one has it; HTTP callers on its ports. */
  static async open(target: TunnelTarget): Promise<Tunnel>
  static async open<P extends TunnelPort>(target: TunnelTarget, portOf: TunnelPortOf<P>): Promise<Tunnel<P>>
  static async open<P extends TunnelPort>(target: TunnelTarget, portOf?: TunnelPortOf<P>): Promise<Tunnel<P> | Tunnel> {
    await sessionToResume(target.server, target.credentials)
    return portOf ? new Tunnel(target, portOf) : new Tunnel<PortStream>(target, (tunnel, index, port) => new PortStream(tunnel, index, port))
  }

  private constructor(target: TunnelTarget, portOf: TunnelPortOf<P>) {
    this.streams = target.ports.map((port, index) => portOf(this, index, port))
    const url = new URL(target.server)
    const secure = url.protocol === 'https:'
    const port = Number(url.port || (secure ? 443 : 80))
    const { rejectUnauthorized, servername } = target.credentials
    this.socket = secure
      ? tls.connect({
          host: url.hostname,
          port,
          rejectUnauthorized,
          servername: servername ?? (net.isIP(url.hostname) ? undefined : url.hostname),
          ALPNProtocols: ['http/1.1'],
          // The CA and client key parsed once per run, and the API connection's session resumed: no certificate
          // checked again per forward, on either side.
          ...sharedTls(target.server, target.credentials),
        })
      : net.connect({ host: url.hostname, port })
    if (secure) keepSessions(this.socket as tls.TLSSocket, target.server, target.credentials)
    const wsKey = process.getBuiltinModule('node:crypto').randomBytes(16).toString('base64')
    const headers = Object.entries(target.credentials.headers).map(([name, value]) => `${name}: ${value}\r\n`)
    const ports = target.ports.map((p) => `ports=${p}`).join('&')
    const request =
      `GET /api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward?${ports} HTTP/1.1\r\n` +
      `Host: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n${headers.join('')}\r\n`
    this.socket.once(secure ? 'secureConnect' : 'connect', () => {
      if (secure) target.onSecure?.((this.socket as tls.TLSSocket).isSessionReused())
      this.socket.write(request)
    })
    this.socket.on('error', (error) => this.end(error.message))
    this.socket.on('end', () => this.end())
    this.socket.on('close', () => this.end())
    this.socket.on('data', (chunk: Buffer) => this.receive(chunk))
  }

  /** Open and not refused: a stream of it may still carry calls. */
  get open(): boolean {
    return !this.closed && !this.refusal
  }

  get ready(): boolean {
    return this.upgraded
  }

  /** Every stream given up (destroyAll, an interrupt): the connection closes. */
  destroy(): void {
    for (const stream of this.streams) stream.ended = true
    this.close()
  }

  /** Closes the connection once none of its streams can be used again. */
  release(): void {
    if (this.streams.every((s) => s.ended)) this.close()
  }

  /** The process waits for the connection only while a stream waits for an answer. */
  hold(): void {
    if (this.streams.some((s) => s.busy)) this.socket.ref()
    else this.socket.unref()
  }

  send(index: number, bytes: Buffer): void {
    this.socket.write(frame(Buffer.concat([Buffer.from([index * 2]), bytes])))
  }

  private close(): void {
    this.closed = true
    // A socket destroyed with a write still in flight makes Node build (and format) an error nobody
    // reads when the write completes, at the end of a short run; a pending write ends first.
    if (this.socket.writableLength > 0) this.socket.destroySoon()
    else this.socket.destroy()
  }

  /** The connection ended (closed, refused, failed): every stream's call and watch is told. */
  private end(reason?: string): void {
    this.closed = true
    for (const stream of this.streams) stream.close(reason)
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
      // What came with the upgrade is read first: a port the Pod side already failed is asked nothing. A request
      // written to a forward the far side is closing can make the API server reset it before that side's words reach us.
      this.readFrames()
      for (const stream of this.streams) stream.upgraded()
      return
    }
    this.readFrames()
  }

  private readFrames(): void {
    for (;;) {
      const parsed = readFrame(this.pending)
      if (!parsed) return
      this.pending = this.pending.subarray(parsed.size)
      if (parsed.opcode === 8) return this.end()
      if (parsed.opcode !== 1 && parsed.opcode !== 2) continue
      const channel = parsed.payload[0]
      const stream = this.streams[channel >> 1]
      if (!stream) continue
      let payload = parsed.payload.subarray(1)
      if (!this.seenChannel.has(channel)) {
        this.seenChannel.add(channel)
        payload = payload.subarray(2)
      }
      if (channel & 1) stream.errorData(payload.toString('utf8'))
      else if (payload.length > 0) stream.data(payload)
    }
  }
}

/**
 * One Pod port inside a tunnel: it carries one call's pipelined HTTP/1.1 requests at a time, and stays open for the
 * next call while every answer so far came whole and nothing came on its error channel.
 */
export class PortStream implements TunnelPort {
  private errorText = ''
  private call?: { paths: string[]; maxBytes: number; data: Buffer; finish: (reason?: string) => void }
  /** Set by firstBytes: told of the first data and of the end. */
  private watch?: { data: (bytes: number) => void; end: (reason?: string) => void }
  private calls = 0
  /** The last answer's time, or the stream's opening: a stream idle MAX_IDLE_MS since is not used again. */
  private lastAnswer = Date.now()
  /** Nothing more goes over this port: the connection closed, an answer came cut, or the Pod side failed. */
  ended = false
  /**
   * Nothing at all came back for the last call, on a stream used before (the Pod's server closed it while idle), or
   * on a new one that closed with no word from the Pod side: a request written while the far side closes can make the
   * API server cut the connection before that side's words reach us. Worth asking once more on a new connection.
   */
  silentRetry = false

  constructor(
    private readonly tunnel: Tunnel,
    private readonly index: number,
    readonly port: number,
  ) {}

  /**
   * Whether the next call may use this stream: open, every answer so far whole, nothing on the error channel, and
   * not idle long enough for the Pod's server to have closed its side (CometBFT's RPC closes idle connections after 10 s).
   */
  get usable(): boolean {
    return !this.ended && this.tunnel.open && this.errorText === '' && this.call === undefined && Date.now() - this.lastAnswer < MAX_IDLE_MS
  }

  /** The Pod side said why the port cannot be used (its error channel), or the API server refused the forward. */
  get told(): boolean {
    return this.errorText.trim() !== '' || this.tunnel.refusal !== undefined
  }

  get busy(): boolean {
    return this.call !== undefined || this.watch !== undefined
  }

  /** Nothing more over this port; the connection closes with its last stream. */
  destroy(): void {
    this.ended = true
    this.tunnel.release()
  }

  request(paths: string[], options: { timeoutMs: number; maxBytes: number }): Promise<(PodAnswer | Error)[]> {
    if (this.tunnel.refusal) return Promise.reject(this.tunnel.refusal)
    const reused = this.calls++ > 0
    this.silentRetry = false
    return new Promise((resolve, reject) => {
      const call = { paths, maxBytes: options.maxBytes, data: Buffer.alloc(0), finish: (reason?: string) => finish(reason) }
      let timedOut = false
      const timer = setTimeout(() => {
        timedOut = true
        finish(`no answer within ${options.timeoutMs / 1000}s`)
      }, options.timeoutMs)
      /** Whatever has arrived, per path; `reason` stands in for the answers that did not. */
      const finish = (reason = 'the connection closed before the Pod port answered') => {
        clearTimeout(timer)
        this.call = undefined
        this.lastAnswer = Date.now()
        // An answer cut short, or one still arriving, would be read as the next call's: such a stream is not used again.
        if (completeAnswers(call.data) < paths.length || answersEnd(call.data) !== call.data.length) this.ended = true
        if (this.ended) this.tunnel.release()
        this.tunnel.hold()
        if (this.tunnel.refusal) return reject(this.tunnel.refusal)
        if (call.data.length === 0) {
          this.silentRetry = reused || (!timedOut && !this.told)
          return reject(new Error(this.errorText.trim() || reason))
        }
        const answers: (PodAnswer | Error)[] = splitAnswers(call.data, options.maxBytes)
        while (answers.length < paths.length) answers.push(new Error(this.errorText.trim() || reason))
        resolve(answers)
      }
      this.call = call
      this.tunnel.hold()
      if (this.ended) return finish()
      if (this.tunnel.ready) this.dispatch(call)
    })
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
        end: (reason) => done({ closed: true, error: this.tunnel.refusal?.message ?? (this.errorText.trim() || reason) }),
      }
      this.tunnel.hold()
    })
  }

  /** The tunnel is upgraded: a call waiting for it goes out now (or after holdMs). */
  upgraded(): void {
    if (this.call && !this.ended) this.dispatch(this.call)
  }

  /**
   * Wait this long after the upgrade before asking (a second try after a reset that took the Pod side's words with it):
   * a port the Pod side cannot reach says so at once, and nothing written meanwhile can cut it off.
   */
  holdMs = 0

  private dispatch(call: NonNullable<PortStream['call']>): void {
    if (this.holdMs === 0) return this.send(call.paths)
    setTimeout(() => {
      if (this.call === call && !this.ended) this.send(call.paths)
    }, this.holdMs).unref()
  }

  /** The connection ended: the call in flight finishes with what came, a watcher hears it. */
  close(reason?: string): void {
    this.watch?.end(reason)
    if (this.ended && !this.call) return
    this.ended = true
    this.call?.finish(reason)
  }

  /**
   * Text on the port's error channel: the Pod side failed (nothing listens, the port is not there, the Pod's server
   * went away). The port is done, while the tunnel's other ports go on: its call finishes now, with what came.
   */
  errorData(text: string): void {
    this.errorText += text
    if (!this.errorText.trim()) return
    this.close()
    this.tunnel.release()
  }

  data(payload: Buffer): void {
    if (this.watch) return this.watch.data(payload.length)
    const call = this.call
    // Data nobody asked for: the stream is out of step, not to be used again.
    if (!call) return this.destroy()
    call.data = Buffer.concat([call.data, payload])
    if (call.data.length > call.maxBytes || completeAnswers(call.data) >= call.paths.length) call.finish()
  }

  private send(paths: string[]): void {
    // HTTP/1.1 keep-alive: a long answer comes chunked, so its end is seen without waiting for the forward to close.
    const gets = paths.map((path) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n\r\n`)
    this.tunnel.send(this.index, Buffer.from(gets.join('')))
  }
}

/** A masked client frame (RFC 6455 §5.3: every client frame is masked); exported for its tests. */
export function frame(payload: Buffer): Buffer {
  const mask = process.getBuiltinModule('node:crypto').randomBytes(4)
  const length = payload.length
  let header: Buffer
  if (length < 126) header = Buffer.from([0x82, 0x80 | length])
  else if (length < 0x10000) header = Buffer.from([0x82, 0x80 | 126, length >> 8, length & 0xff])
  else {
    // A local connection's chunk (a forwarded request body) can be longer than 16 bits say.
    header = Buffer.from([0x82, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0, 0])
    header.writeBigUInt64BE(BigInt(length), 2)
  }
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]))
  return Buffer.concat([header, mask, masked])
}

/** The first whole frame of what came (the server's frames are not masked); exported for its tests. */
export function readFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | undefined {
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
