import { request } from 'node:http'
import { connect } from 'node:net'
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

/** Send `text` on a raw socket; what came back and how long until the server closed (or `waitMs` passed). */
function raw(text: string | Buffer, waitMs = 3000): Promise<{ answer: string; closedAfterMs?: number }> {
  return new Promise((resolve) => {
    const started = Date.now()
    let answer = ''
    const socket = connect(server.port, '127.0.0.1', () => socket.write(text))
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk))
    socket.on('error', () => undefined)
    const timer = setTimeout(() => {
      socket.destroy()
      resolve({ answer })
    }, waitMs)
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ answer, closedAfterMs: Date.now() - started })
    })
  })
}

describe('a stray line on the port', () => {
  it.each([
    ['an HTTP/0.9 request', 'GET /metrics\r\n'],
    ['an HTTP/0.9 request ended by LF alone', 'GET /metrics\n'],
    ['an unknown protocol line', 'HELLO chainnode\r\n'],
    ['an SSH greeting', 'SSH-2.0-OpenSSH_9.6\r\n'],
    ['HTTP/2 without TLS', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'],
    ['a TLS ClientHello on the plain port', Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03])],
  ])('%s gets 400 and a close within a second', async (_, line) => {
    const { answer, closedAfterMs } = await raw(line)
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(closedAfterMs).toBeLessThan(1000)
  })

  it('a connection that says nothing, or half a line, is closed after a second', async () => {
    for (const text of ['', 'GET /metr']) {
      const { answer, closedAfterMs } = await raw(text)
      expect(answer).toMatch(/^HTTP\/1\.1 400 /)
      expect(closedAfterMs).toBeGreaterThanOrEqual(900)
      expect(closedAfterMs).toBeLessThan(2000)
    }
  })

  it('a request sent in pieces, and two requests on one connection, are answered as usual', async () => {
    const pieces = ['GE', 'T /metr', 'ics HTTP/1.1\r\nHost: x\r\n', 'Connection: close\r\n\r\n']
    const answer = await new Promise<string>((resolve) => {
      let text = ''
      const socket = connect(server.port, '127.0.0.1', async () => {
        for (const piece of pieces) {
          socket.write(piece)
          await new Promise((r) => setTimeout(r, 30))
        }
      })
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
      socket.on('close', () => resolve(text))
    })
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nm 1\n$/)
    const two = await raw('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\nGET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(two.answer.match(/^HTTP\/1\.1 \d+/gm)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404'])
    expect(two.closedAfterMs).toBeLessThan(1000)
  })

  /** One request, its answer read, then `later` on the same kept-alive connection: all that came back, and when it closed after `later`. */
  function afterAnsweredRequest(later: string, waitMs = 3000): Promise<{ answers: string[]; closedAfterMs?: number }> {
    return new Promise((resolve) => {
      let text = ''
      let sentAt = 0
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n'))
      socket.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk
        if (!sentAt && text.endsWith('m 1\n')) {
          sentAt = Date.now()
          socket.write(later)
        }
      })
      socket.on('error', () => undefined)
      const finish = (closedAfterMs?: number) => resolve({ answers: text.match(/^HTTP\/1\.1 \d+/gm) ?? [], closedAfterMs })
      const timer = setTimeout(() => (socket.destroy(), finish()), waitMs)
      socket.on('close', () => (clearTimeout(timer), finish(sentAt ? Date.now() - sentAt : undefined)))
    })
  }

  it.each([
    ['an HTTP/0.9 request', 'GET /metrics\r\n'],
    ['an unknown protocol line', 'HELLO chainnode\r\n'],
  ])('%s after an answered request on a kept-alive connection gets 400 and a close within a second', async (_, later) => {
    const { answers, closedAfterMs } = await afterAnsweredRequest(later)
    expect(answers).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400'])
    expect(closedAfterMs).toBeLessThan(1000)
  })

  it('half a line after an answered request is closed after a second; a whole request is answered', async () => {
    const half = await afterAnsweredRequest('GET /metr')
    expect(half.answers).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400'])
    expect(half.closedAfterMs).toBeGreaterThanOrEqual(900)
    expect(half.closedAfterMs).toBeLessThan(2000)
    const whole = await afterAnsweredRequest('GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    expect(whole.answers).toEqual(['HTTP/1.1 200', 'HTTP/1.1 404'])
    expect(whole.closedAfterMs).toBeLessThan(1000)
  })

  it('a keep-alive client is answered on one connection as often as it asks', async () => {
    const { Agent } = await import('node:http')
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const sockets = new Set<unknown>()
    for (let i = 0; i < 5; i++)
      await new Promise<void>((resolve, reject) =>
        request({ host: '127.0.0.1', port: server.port, path: '/metrics', agent }, (res) => {
          sockets.add(res.socket)
          expect(res.statusCode).toBe(200)
          res.resume().on('end', resolve)
        })
          .on('error', reject)
          .end(),
      )
    expect(sockets.size).toBe(1)
    agent.destroy()
  })
})
