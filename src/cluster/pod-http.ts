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

/**
 * HTTP GETs to a Pod port through the API server's port-forward over a WebSocket (channel protocol v4:
 * a channel byte before each message, a two-byte port first on each channel), the way kubectl did
 * before SPDY tunnelling. The requests share one forwarded connection (HTTP/1.1 keep-alive, sent at
 * once). A few dozen lines here instead of @kubernetes/client-node, whose import alone costs about
 * half a second: more than the chain probe is allowed to add to a run. Each path gets its answer or
 * the error that stood in its way; a refused port-forward rejects the whole call.
 */
export function podHttpGet(target: PodPort, paths: string[], options: { timeoutMs: number; maxBytes: number }): Promise<(PodAnswer | Error)[]> {
  const url = new URL(target.server)
  const secure = url.protocol === 'https:'
  const port = Number(url.port || (secure ? 443 : 80))
  const { ca, cert, key, rejectUnauthorized, servername } = target.credentials
  return new Promise<(PodAnswer | Error)[]>((resolve, reject) => {
    const socket: net.Socket = secure
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
    socket.on('session', (session: Buffer) => sessions.set(target.server, session))
    const release = onInterrupt(() => socket.destroy())
    let settled = false
    const settle = (outcome: Error | (PodAnswer | Error)[]) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      release()
      // A socket destroyed with a write still in flight makes Node build (and format) an error nobody
      // reads when the write completes, at the end of a short run; a pending write ends first.
      if (socket.writableLength > 0) socket.destroySoon()
      else socket.destroy()
      if (outcome instanceof Error) reject(outcome)
      else resolve(outcome)
    }
    const timer = setTimeout(() => done(`no answer within ${options.timeoutMs / 1000}s`), options.timeoutMs)
    const wsKey = process.getBuiltinModule('node:crypto').randomBytes(16).toString('base64')
    const headers = Object.entries(target.credentials.headers).map(([name, value]) => `${name}: ${value}\r\n`)
    const request =
      `GET /api/v1/namespaces/${encodeURIComponent(target.namespace)}/pods/${encodeURIComponent(target.pod)}/portforward?ports=${target.port} HTTP/1.1\r\n` +
      `Host: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${wsKey}\r\nSec-WebSocket-Version: 13\r\n` +
      `Sec-WebSocket-Protocol: v4.channel.k8s.io\r\n${headers.join('')}\r\n`
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(request))
    socket.on('error', (error) => done(error.message))

    let pending = Buffer.alloc(0)
    let upgraded = false
    let data = Buffer.alloc(0)
    let errorText = ''
    const seenPort = new Set<number>()
    /** Whatever has arrived, per path; `reason` stands in for the answers that did not. */
    function done(reason = 'the connection closed before the Pod port answered') {
      if (data.length === 0) return settle(new Error(errorText.trim() || reason))
      const answers: (PodAnswer | Error)[] = splitAnswers(data, options.maxBytes)
      while (answers.length < paths.length) answers.push(new Error(errorText.trim() || reason))
      settle(answers)
    }
    socket.on('end', () => done())
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk])
      if (!upgraded) {
        const end = pending.indexOf('\r\n\r\n')
        if (end < 0) return
        const head = pending.subarray(0, end).toString('latin1')
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0)
        if (status !== 101) {
          const body = pending.subarray(end + 4).toString('utf8')
          const quoted = /"message":("(?:[^"\\]|\\.)*")/.exec(body)?.[1]
          const message = quoted ? (JSON.parse(quoted) as string) : head.split('\r\n')[0]
          return settle(status === 401 || status === 403 ? new PortForwardRefused(status, message) : new Error(`port-forward: HTTP ${status}: ${message}`))
        }
        upgraded = true
        pending = pending.subarray(end + 4)
        // HTTP/1.1: a long answer comes chunked, so its end is seen without waiting for the forward to close.
        const gets = paths.map(
          (path, i) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
        )
        socket.write(frame(Buffer.concat([Buffer.from([DATA]), Buffer.from(gets.join(''))])))
      }
      for (;;) {
        const parsed = readFrame(pending)
        if (!parsed) return
        pending = pending.subarray(parsed.size)
        if (parsed.opcode === 8) return done()
        if (parsed.opcode !== 1 && parsed.opcode !== 2) continue
        const channel = parsed.payload[0]
        let payload = parsed.payload.subarray(1)
        if (!seenPort.has(channel)) {
          seenPort.add(channel)
          payload = payload.subarray(2)
        }
        if (channel === ERROR) errorText += payload.toString('utf8')
        else if (channel === DATA && payload.length > 0) {
          data = Buffer.concat([data, payload])
          if (data.length > options.maxBytes || completeAnswers(data) >= paths.length) return done()
        }
      }
    })
  })
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
