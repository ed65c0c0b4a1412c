import { request } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { startHttpServer } from '../../src/cluster/http-server.js'

const server = await startHttpServer(
  { host: '127.0.0.1', port: 0 },
  {
    '/metrics': () => ({ status: 200, contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'm 1\n' }),
    '/broken': () => {
      throw new Error('no report yet')
    },
  },
)
afterAll(() => server.close())

function call(method: string, path: string): Promise<{ status: number; type?: string; body: string; allow?: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, method, path }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, type: res.headers['content-type'], body, allow: res.headers.allow }))
    })
    req.on('error', reject)
    req.end(method === 'POST' ? 'x'.repeat(10_000) : undefined)
  })
}

describe('the read-only HTTP server of serve', () => {
  it('answers a route with its status, content type and body; a query string does not change the path', async () => {
    expect(server.host).toBe('127.0.0.1')
    expect(await call('GET', '/metrics?x=1')).toMatchObject({ status: 200, type: 'text/plain; version=0.0.4; charset=utf-8', body: 'm 1\n' })
  })

  it('answers HEAD without a body, and refuses other methods with 405 and Allow', async () => {
    expect(await call('HEAD', '/metrics')).toMatchObject({ status: 200, body: '' })
    expect(await call('POST', '/metrics')).toMatchObject({ status: 405, allow: 'GET, HEAD' })
  })

  it('answers an unknown path with 404 naming the routes, and a route that throws with 500', async () => {
    expect(await call('GET', '/../etc/passwd')).toMatchObject({ status: 404, body: 'not found: try /metrics, /broken\n' })
    expect(await call('GET', '/broken')).toMatchObject({ status: 500, body: 'no report yet\n' })
  })

  it('refuses a port already taken, as an error of start', async () => {
    await expect(startHttpServer({ host: '127.0.0.1', port: server.port }, {})).rejects.toThrow(/EADDRINUSE/)
  })

  it('closes at once even with a client holding a keep-alive connection', async () => {
    const other = await startHttpServer({ host: '127.0.0.1', port: 0 }, { '/': () => ({ status: 200, contentType: 'text/plain', body: 'ok' }) })
    const { Agent } = await import('node:http')
    const agent = new Agent({ keepAlive: true })
    await new Promise<void>((resolve) => request({ host: '127.0.0.1', port: other.port, path: '/', agent }, (res) => res.resume().on('end', resolve)).end())
    const started = Date.now()
    await other.close()
    expect(Date.now() - started).toBeLessThan(1000)
    agent.destroy()
  })
})
