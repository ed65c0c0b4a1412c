import { readFileSync } from 'node:fs'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PassThrough } from 'node:stream'
import { once } from 'node:events'
import { KubeClient, readBody } from '../../src/cluster/kube-client.js'
import { selfSignedCert } from '../cluster/pki.js'

// An empty HTTP/2 answer (headers with END_STREAM, as the API server sends for an init container that
// logged nothing) can end and close its stream before the reader resumes. Reading must still finish:
// once, a run waited for the request timeout and then ended with no output at all.
describe('HTTP/2 answers with no body', () => {
  let server: http2.Http2SecureServer
  let client: KubeClient
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'empty-bodies-'))
    const { key, cert } = selfSignedCert(dir, 'localhost', 'IP:127.0.0.1')
    server = http2.createSecureServer({ key: readFileSync(key), cert: readFileSync(cert) })
    server.on('stream', (stream, headers) => {
      const empty = String(headers[':path']).includes('empty')
      stream.respond({ ':status': 200, 'content-type': 'text/plain' }, { endStream: empty })
      if (!empty) stream.end('a line\n')
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    client = new KubeClient({
      server: `https://127.0.0.1:${port}`,
      credentials: { ca: readFileSync(cert, 'utf8'), rejectUnauthorized: true, headers: {} },
      timeoutMs: 5_000,
      concurrency: 32,
    })
  })
  afterAll(() => {
    client.close()
    server.close()
  })

  it('reads hundreds of empty and short answers, side by side, without waiting for a timeout', async () => {
    const started = Date.now()
    const reads = Array.from({ length: 300 }, (_, i) => client.getText(`/log-${i}${i % 3 === 0 ? '' : '-empty'}`, 1024))
    const results = await Promise.all(reads)
    expect(results.filter((r) => r.text === '').length).toBe(200)
    expect(results.filter((r) => r.text === 'a line\n').length).toBe(100)
    // The request timeout is 5 s: any read that lost its end would have waited for it.
    expect(Date.now() - started).toBeLessThan(4_000)
  })

  it('reads empty answers one after another, each on its own turn of the event loop', async () => {
    for (let i = 0; i < 100; i++) {
      await new Promise((resolve) => setImmediate(resolve))
      expect((await client.getText(`/empty-${i}`, 1024)).text).toBe('')
    }
  })

  it('finishes reading a body that ended and closed before the reader came', async () => {
    const body = new PassThrough()
    body.end()
    body.resume()
    await once(body, 'close')
    await expect(readBody(body)).resolves.toEqual({ text: '', truncated: false })
  })

  it('fails, not waits, on a body that closed before its end', async () => {
    const body = new PassThrough()
    body.write('half an ans')
    body.destroy()
    await once(body, 'close')
    await expect(readBody(body)).rejects.toMatchObject({ code: 'ECONNRESET' })
  })

  it('stops at the byte cap and says the answer was cut', async () => {
    const body = new PassThrough()
    body.end('0123456789')
    await expect(readBody(body, 4)).resolves.toEqual({ text: '0123', truncated: true })
  })
})
