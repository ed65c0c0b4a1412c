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
  server.on('connection', (socket: Socket) => {
    screening.add(socket)
    let seen: Buffer = Buffer.alloc(0)
    // Until the hand-over, a reset by the peer ends only this connection (the HTTP server listens after it).
    const ignore = () => undefined
    socket.on('error', ignore)
    const done = () => {
      clearTimeout(timer)
      socket.off('data', onData)
      screening.delete(socket)
    }
    const refuse = (why: string) => {
      done()
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${why}: send an HTTP/1.1 request\n`)
      // A peer that does not read the answer does not keep the connection either.
      setTimeout(() => socket.destroy(), FIRST_LINE_MS).unref()
    }
    const timer = setTimeout(() => refuse('no request line within a second'), FIRST_LINE_MS)
    const onData = (chunk: Buffer) => {
      seen = seen.length ? Buffer.concat([seen, chunk]) : chunk
      const end = seen.indexOf(0x0a)
      const bytes = seen.subarray(0, end === -1 ? Math.min(seen.length, MAX_LINE_BYTES + 1) : end)
      if (hasNonLineByte(bytes) || bytes.length > MAX_LINE_BYTES) return refuse('not an HTTP request line')
      if (end === -1) return
      if (!REQUEST_LINE.test(bytes.toString('latin1').replace(/\r$/, ''))) return refuse('not an HTTP/1.x request line')
      done()
      socket.off('error', ignore)
      // Paused before the bytes go back: the HTTP server reads the socket natively from now on, and resuming it
      // after the hand-over delivers these bytes to its parser before anything the socket reads next.
      socket.pause()
      socket.unshift(seen)
      for (const listener of handOver) listener.call(server, socket)
      socket.resume()
    }
    socket.on('data', onData)
    socket.on('close', done)
  })
  return screening
}
