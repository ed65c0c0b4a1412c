import type http2 from 'node:http2'
import type https from 'node:https'
import net from 'node:net'
import type { Readable } from 'node:stream'
import tls from 'node:tls'
import type { Credentials } from './auth.js'
import { keepSessions, sharedTls } from './tls-reuse.js'

/**
 * Flow-control windows: 4 MiB per stream, as Go's HTTP/2 client (kubectl) opens, so a 200 kB log arrives without
 * waiting for our window updates (HTTP/2's default is 64 KiB); 64 MiB for the connection (Go opens 1 GiB).
 */
const STREAM_WINDOW = 4 * 1024 * 1024
const CONNECTION_WINDOW = 64 * 1024 * 1024
/**
 * A connection can go silent without closing (a load balancer or NAT dropping the flow, a node gone): requests
 * then time out one after another on it and nothing replaces it. So the held HTTP/2 connection is pinged, as
 * Go's client does (ReadIdleTimeout/PingTimeout; 30 s/15 s there): every PING_EVERY_MS, and at once when a request
 * on it was cancelled (a timeout). A PING not answered within PING_TIMEOUT_MS drops the connection, with an
 * error that ends the watches on it (they are listed again on a new one); the next request opens a new one.
 * An API server answers a PING from its HTTP/2 layer at once, however busy it is.
 */
const PING_EVERY_MS = 15_000
const PING_TIMEOUT_MS = 5_000
/**
 * Set only by a test run that shows what the PING does (test/e2e/serve-blind.e2e.test.ts, its header says how): the
 * transport as it was before, with no PING at all, so that run shows the black-holed connection never replaced.
 */
const NO_PING = process.env.KUBECTL_CHAINNODE_TEST_NO_PING === '1'
/** A TLS handshake that does not finish in this time is given up (a new connection black-holed like the old). */
const HANDSHAKE_TIMEOUT_MS = 15_000

export interface RawResponse {
  status: number
  retryAfter?: string
  body: Readable
}

/** A request in flight: its response, and a way to end it early (timeout, enough bytes, Ctrl-C). */
export interface Exchange {
  response: Promise<RawResponse>
  cancel(error?: Error): void
}

/**
 * The connection to one API server. HTTP/2 when the server offers it, as kubectl does: a single TLS
 * handshake with every read multiplexed on it, where HTTP/1.1 pays a handshake per parallel read.
 * Servers or proxies that only speak HTTP/1.1 get keep-alive HTTP/1.1.
 */
export class Transport {
  /** HTTP/1.1 only when the server offers no HTTP/2: node:https is loaded then, not at every start. */
  private agent?: https.Agent
  private readonly maxSockets: number
  private readonly tlsOptions: tls.ConnectionOptions
  private session?: Promise<http2.ClientHttp2Session | undefined>
  private open = 0
  private closed = false
  private handshake?: tls.TLSSocket
  private readonly credentials: Credentials
  /** Connections dropped because they did not answer a PING (for --debug and the tests). */
  silentDrops = 0

  constructor(
    private readonly server: URL,
    credentials: Credentials,
    maxSockets: number,
  ) {
    const { ca, cert, key, rejectUnauthorized, servername } = credentials
    this.tlsOptions = { ca, cert, key, rejectUnauthorized, servername }
    this.credentials = credentials
    this.maxSockets = maxSockets
  }

  send(path: string, headers: Record<string, string>, signal?: AbortSignal): Exchange {
    let current: Exchange | undefined
    let cancelled: Error | undefined
    let rejectEarly: (error: Error) => void = () => undefined
    const response = new Promise<RawResponse>((resolve, reject) => {
      rejectEarly = reject
      // A read that follows the end of the run (a fallback after a failure) must not reconnect.
      if (this.closed) return reject(new Error('the connection to the API server was closed'))
      this.http2Session().then((session) => {
        if (cancelled) return
        try {
          current = session ? this.sendHttp2(session, path, headers, signal) : this.sendHttp1(path, headers, signal)
          current.response.then(resolve, reject)
        } catch (error) {
          // A session the server sent GOAWAY on (or that closed) refuses new streams at once.
          reject(error)
        }
      }, reject)
    })
    // Until a request is on the wire (the handshake may hang), cancelling answers at once.
    const cancel = (error?: Error) => {
      cancelled = error ?? new Error('cancelled')
      if (current) current.cancel(error)
      else rejectEarly(cancelled)
    }
    signal?.addEventListener('abort', () => cancel(), { once: true })
    return { response, cancel }
  }

  close(): void {
    this.closed = true
    this.handshake?.destroy()
    void this.session?.then(
      (session) => session?.destroy(),
      () => undefined,
    )
    this.session = undefined
    this.agent?.destroy()
  }

  private http2Session(): Promise<http2.ClientHttp2Session | undefined> {
    if (this.session) return this.session
    const pending: Promise<http2.ClientHttp2Session | undefined> = this.negotiate().then(
      (session) => {
        // A session the server closed, said GOAWAY on, or that died is replaced on the next request.
        const forget = () => {
          if (this.session === pending) this.session = undefined
        }
        session?.once('close', forget)
        session?.once('goaway', forget)
        return session
      },
      (error) => {
        // The next request tries again (the server may be back); this one reports why it failed.
        if (this.session === pending) this.session = undefined
        throw error
      },
    )
    this.session = pending
    return pending
  }

  private negotiate(): Promise<http2.ClientHttp2Session | undefined> {
    const host = this.server.hostname.replace(/^\[|\]$/g, '')
    // Node warns when an IP address is sent as TLS server name (RFC 6066 forbids it).
    const servername = this.tlsOptions.servername ?? (net.isIP(host) ? undefined : host)
    return new Promise((resolve, reject) => {
      // The CA, certificate and key are in the shared context, parsed once; only the checks are passed beside it.
      const socket = tls.connect({
        rejectUnauthorized: this.tlsOptions.rejectUnauthorized,
        ...sharedTls(this.server.href, this.credentials),
        host,
        servername,
        port: Number(this.server.port || 443),
        ALPNProtocols: ['h2', 'http/1.1'],
      })
      // The session the server hands out here is what the port-forwards of the run resume.
      keepSessions(socket, this.server.href, this.credentials)
      // Loaded once the ClientHello is out (TLS sends it on connect, before this listener), not with the
      // bundle: its ~3 ms of start-up work then runs while the server answers the handshake.
      socket.once('connect', () => process.getBuiltinModule('node:http2'))
      this.handshake = socket
      const silent = setTimeout(
        () => socket.destroy(Object.assign(new Error(`no TLS handshake within ${HANDSHAKE_TIMEOUT_MS / 1000}s`), { code: 'ETIMEDOUT' })),
        HANDSHAKE_TIMEOUT_MS,
      )
      silent.unref()
      socket.once('close', () => clearTimeout(silent))
      socket.once('error', reject)
      socket.once('close', () => reject(Object.assign(new Error('the connection closed during the TLS handshake'), { code: 'ECONNRESET' })))
      socket.once('secureConnect', () => {
        clearTimeout(silent)
        this.handshake = undefined
        socket.off('error', reject)
        if (socket.alpnProtocol !== 'h2') {
          socket.destroy()
          resolve(undefined)
          return
        }
        const session = process
          .getBuiltinModule('node:http2')
          .connect(this.server.origin, { createConnection: () => socket, settings: { initialWindowSize: STREAM_WINDOW } })
        session.setLocalWindowSize(CONNECTION_WINDOW)
        // Failures reach the streams that were open.
        session.on('error', () => undefined)
        session.unref()
        this.watchForSilence(session)
        resolve(session)
      })
    })
  }

  private sendHttp2(session: http2.ClientHttp2Session, path: string, headers: Record<string, string>, signal?: AbortSignal): Exchange {
    const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))
    const stream = session.request({ ':method': 'GET', ':path': path, ...lower }, { endStream: true, signal })
    // An unref'd session does not hold the process open when idle; a read in flight must.
    if (this.open++ === 0) session.ref()
    stream.once('close', () => {
      if (--this.open === 0 && !session.destroyed) session.unref()
    })
    const response = new Promise<RawResponse>((resolve, reject) => {
      stream.once('error', reject)
      // A session torn down under the stream closes it without an error.
      const closedEarly = () => reject(Object.assign(new Error('the connection closed before the server answered'), { code: 'ECONNRESET' }))
      stream.once('close', closedEarly)
      stream.once('response', (h) => {
        stream.off('error', reject)
        stream.off('close', closedEarly)
        const retryAfter = h['retry-after']
        resolve({ status: Number(h[':status']), retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: stream })
      })
    })
    return {
      response,
      cancel: (error) => {
        stream.destroy(error)
        // A request given up on (a timeout, mostly) may have waited on a connection that went silent.
        this.checkAlive(session)
      },
    }
  }

  /** Ping the connection every PING_EVERY_MS for as long as it is open (the timer does not hold the process). */
  private watchForSilence(session: http2.ClientHttp2Session): void {
    if (NO_PING) return
    const timer = setInterval(() => this.checkAlive(session), PING_EVERY_MS)
    timer.unref()
    session.once('close', () => clearInterval(timer))
  }

  private readonly pinging = new WeakSet<http2.ClientHttp2Session>()

  /** Send a PING unless one is out already; drop the connection when no answer comes in time. */
  private checkAlive(session: http2.ClientHttp2Session): void {
    if (NO_PING || session.destroyed || session.closed || this.pinging.has(session)) return
    this.pinging.add(session)
    let answered = false
    const timer = setTimeout(() => {
      // Answers that came in while this process was busy (a long synchronous step) are read before the verdict:
      // I/O callbacks run before setImmediate's.
      setImmediate(() => {
        this.pinging.delete(session)
        if (answered || session.destroyed) return
        this.silentDrops++
        session.destroy(
          Object.assign(new Error(`the API server did not answer a PING within ${PING_TIMEOUT_MS / 1000}s: connection dropped`), { code: 'ETIMEDOUT' }),
        )
      })
    }, PING_TIMEOUT_MS)
    timer.unref()
    try {
      session.ping((error) => {
        answered = !error
        if (answered) {
          clearTimeout(timer)
          this.pinging.delete(session)
        }
      })
    } catch {
      // The session is closing: its 'close' replaces it.
      clearTimeout(timer)
      this.pinging.delete(session)
    }
  }

  private sendHttp1(path: string, headers: Record<string, string>, signal?: AbortSignal): Exchange {
    const { Agent, request } = process.getBuiltinModule('node:https')
    this.agent ??= new Agent({ keepAlive: true, maxSockets: this.maxSockets, ...this.tlsOptions })
    const req = request(new URL(path, this.server), { method: 'GET', agent: this.agent, headers, signal })
    const response = new Promise<RawResponse>((resolve, reject) => {
      req.once('error', reject)
      req.once('response', (res) => {
        req.off('error', reject)
        // Errors after the headers surface on the body, where the reader listens.
        req.on('error', (error) => res.destroy(error))
        const retryAfter = res.headers['retry-after']
        resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: res })
      })
    })
    req.end()
    return { response, cancel: (error) => req.destroy(error) }
  }
}
