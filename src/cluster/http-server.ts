import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'

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
  const server = createServer({ requestTimeout: 10_000, headersTimeout: 5_000, keepAliveTimeout: 5_000, maxHeaderSize: 8 * 1024 }, (req, res) =>
    answer(req, res, routes),
  )
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
