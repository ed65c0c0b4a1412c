import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** What a route answers; computed per request from what the process already holds (no I/O). */
export interface HttpAnswer {
  status: number
  contentType: string
  body: string
}

export type Routes = Readonly<Record<string, () => HttpAnswer>>

export interface ListenAddress {
  /** undefined: every address (what a Pod's container port needs). */
  host?: string
  port: number
}

export interface RunningServer {
  /** Where it listens, with the port the system chose for port 0. */
  host: string
  port: number
  /** Stop listening and drop open connections (a scraper's keep-alive must not hold a shutdown). */
  close(): Promise<void>
}

const plain = (status: number, body: string): HttpAnswer => ({ status, contentType: 'text/plain; charset=utf-8', body })

/**
 * A small read-only HTTP server (serve's /metrics, /healthz, /readyz, /report): GET and HEAD on the paths
 * given, nothing else. It lives in cluster/ because it opens a socket; what it answers is built elsewhere.
 * Request bodies are not read, and slow clients are cut off, so a stranger on the port costs little.
 */
export function startHttpServer(address: ListenAddress, routes: Routes): Promise<RunningServer> {
  const server = createServer(
    // Node checks the header and request timeouts every connectionsCheckingInterval (30 s by default): once a
    // second, so a request whose headers never end is cut 5 to 6 s after it began, not 35.
    { requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000, maxHeaderSize: 8 * 1024, connectionsCheckingInterval: 1_000 },
    (req, res) => answer(req, res, routes),
  )
  const screening = screenRequestLines(server)
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen({ host: address.host, port: address.port }, () => {
      server.off('error', reject)
      const bound = server.address()
      const where = typeof bound === 'object' && bound ? bound : { address: address.host ?? '', port: address.port }
      resolve({
        host: where.address,
        port: where.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done())
            server.closeAllConnections()
            for (const socket of screening) socket.destroy()
          }),
      })
    })
  })
}

function answer(req: IncomingMessage, res: ServerResponse, routes: Routes): void {
  const path = (req.url ?? '/').split('?')[0]
  let result: HttpAnswer
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('Allow', 'GET, HEAD')
    result = plain(405, 'method not allowed: only GET and HEAD\n')
  } else if (Object.hasOwn(routes, path)) {
    try {
      result = routes[path]()
    } catch (error) {
      result = plain(500, `${(error as Error).message}\n`)
    }
  } else {
    result = plain(404, `not found: try ${Object.keys(routes).join(', ')}\n`)
  }
  const body = Buffer.from(result.body, 'utf8')
  res.writeHead(result.status, { 'Content-Type': result.contentType, 'Content-Length': body.length, 'Cache-Control': 'no-store' })
  res.end(req.method === 'HEAD' ? undefined : body)
  // A body we never read would keep the connection busy; drain it.
  req.resume()
}

/** A connection must send its first request line within this time (a scraper sends its whole request at once). */
const FIRST_LINE_MS = 1_000
/** Longer than any request line serve answers (its paths are short; a query string is ignored). */
const MAX_LINE_BYTES = 8 * 1024
const REQUEST_LINE = /^[A-Z]{1,16} [\x21-\x7e]+ HTTP\/1\.[01]$/
/** Whether a line holds a byte no request line does: a control character (CR ends it) or one above ASCII (TLS). */
const hasNonLineByte = (line: Buffer) => line.some((byte) => (byte < 0x20 && byte !== 0x0d) || byte >= 0x7f)

/**
 * Read the first line a connection sends before Node's HTTP parser does: that parser takes "GET /metrics" with no
 * version (HTTP/0.9) as the start of a request and waits for headers that never come, holding the connection
 * until the header timeout. A line that is no HTTP/1.x request line (HTTP/0.9, TLS on the plain port, another
 * protocol's greeting), or none within a second, gets 400 and the connection is closed. A good line is handed
 * back, unread, to the HTTP server. Returns the connections still being screened (closed with the server).
 */
function screenRequestLines(server: Server): Set<Socket> {
  const screening = new Set<Socket>()
  // http.Server reads a connection from its own 'connection' listener: taken out here and called once the
  // first line passed (emitting 'connection' is how Node lets a caller hand the server a socket).
  const handOver = server.listeners('connection') as ((socket: Socket) => void)[]
  server.removeAllListeners('connection')
  const laterRequests = screenLaterRequests(server)
  server.on('connection', (socket: Socket) => {
    screening.add(socket)
    // Until the hand-over, a reset by the peer ends only this connection (the HTTP server listens after it).
    const ignore = () => undefined
    socket.on('error', ignore)
    const done = () => {
      line.stop()
      socket.off('data', onData)
      screening.delete(socket)
    }
    const line = lineScreen(socket, done)
    const onData = (chunk: Buffer) => {
      if (line.take(chunk) !== 'passed') return
      done()
      socket.off('error', ignore)
      // Paused before the bytes go back: the HTTP server reads the socket natively from now on, and resuming it
      // after the hand-over delivers these bytes to its parser before anything the socket reads next.
      socket.pause()
      socket.unshift(line.seen())
      for (const listener of handOver) listener.call(server, socket)
      laterRequests(socket)
      socket.resume()
    }
    socket.on('data', onData)
    socket.on('close', done)
  })
  return screening
}

/** The first line of a request: the wait for it and the verdict on it, for a connection's first request and later ones. */
function lineScreen(socket: Socket, onRefused: () => void) {
  let seen: Buffer = Buffer.alloc(0)
  const refuse = (why: string): 'refused' => {
    clearTimeout(timer)
    onRefused()
    socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${why}: send an HTTP/1.1 request\n`)
    // A peer that does not read the answer does not keep the connection either.
    setTimeout(() => socket.destroy(), FIRST_LINE_MS).unref()
    return 'refused'
  }
  const timer = setTimeout(() => refuse('no request line within a second'), FIRST_LINE_MS)
  return {
    seen: () => seen,
    stop: () => clearTimeout(timer),
    /** Take a chunk: refused (400 sent), passed (a request line ended), or waiting for the rest of the line. */
    take(chunk: Buffer): 'refused' | 'passed' | 'waiting' {
      seen = seen.length ? Buffer.concat([seen, chunk]) : chunk
      const end = seen.indexOf(0x0a)
      const bytes = seen.subarray(0, end === -1 ? Math.min(seen.length, MAX_LINE_BYTES + 1) : end)
      if (hasNonLineByte(bytes) || bytes.length > MAX_LINE_BYTES) return refuse('not an HTTP request line')
      if (end === -1) return 'waiting'
      if (!REQUEST_LINE.test(bytes.toString('latin1').replace(/\r$/, ''))) return refuse('not an HTTP/1.x request line')
      clearTimeout(timer)
      return 'passed'
    },
  }
}

/** The end of a request's head: an empty line. */
const HEAD_END = /\r?\n\r?\n/

/**
 * After the first request, Node's parser reads the connection: a later HTTP/0.9 line on a kept-alive connection
 * would again hold it until the header timeout. So each request that begins on an idle connection (every
 * earlier request read to its end and answered) is screened as the first one was, its bytes seen before the
 * parser's. Bytes sent before an answer (a body, pipelined requests) leave the parser alone to the next
 * request: where a request begins among them is not known here, and the header timeout still bounds them.
 * Returns the function that starts watching a connection handed over to the HTTP server.
 */
function screenLaterRequests(server: Server): (socket: Socket) => void {
  const watchers = new WeakMap<Socket, (req: IncomingMessage, res: ServerResponse) => void>()
  server.on('request', (req: IncomingMessage, res: ServerResponse) => watchers.get(req.socket as Socket)?.(req, res))
  return (socket) => {
    // head: the bytes of a request whose head is not yet parsed; busy: requests not yet read and answered;
    // idle: the next byte begins a request; line: its first line being screened; unknown: bytes the parser
    // holds may begin the next request (screening resumes after it).
    let state: 'head' | 'busy' | 'idle' | 'line' | 'unknown' = 'head'
    let open = 0
    let tangled = false
    let head = ''
    let line: ReturnType<typeof lineScreen> | undefined
    const stop = () => {
      line?.stop()
      line = undefined
    }
    const onData = (chunk: Buffer) => {
      if (state === 'idle') {
        state = 'line'
        head = ''
        line = lineScreen(socket, stop)
      }
      if (state === 'busy') tangled = true
      if (state !== 'line' && state !== 'head') return
      // Bytes after the end of the head in the chunk that holds it are a body or the next request.
      head = (head + chunk.toString('latin1')).slice(-MAX_LINE_BYTES)
      const end = HEAD_END.exec(head)
      if (end && end.index + end[0].length < head.length) tangled = true
      if (state === 'line' && line) {
        const verdict = line.take(chunk)
        if (verdict === 'passed') {
          stop()
          state = 'head'
        }
      }
    }
    // Seen before the parser reads them (adding a 'data' listener makes Node's HTTP server read the socket in
    // JavaScript, through its own listener, instead of natively).
    socket.prependListener('data', onData)
    socket.on('close', stop)
    watchers.set(socket, (req, res) => {
      stop()
      state = 'busy'
      open++
      let ended = false
      let answered = false
      const settle = () => {
        if (!ended || !answered || --open > 0 || socket.destroyed) return
        state = tangled ? 'unknown' : 'idle'
        tangled = false
        head = ''
      }
      req.once('end', () => ((ended = true), settle()))
      res.once('finish', () => ((answered = true), settle()))
    })
  }
}
