import { describe, expect, it } from 'vitest'
import { gateVerdict, httpVerdict } from '../../src/app/signer-probes.js'

describe('signer probe answers', () => {
  it('passes /livez only on HTTP 200 and quotes the first line of the body', () => {
    expect(httpVerdict({ status: 200, firstLine: 'ok' })).toEqual({ ok: true, detail: 'HTTP 200: ok' })
    expect(httpVerdict({ status: 503, firstLine: '' })).toEqual({ ok: false, detail: 'HTTP 503' })
    expect(httpVerdict({ error: 'connection refused' })).toEqual({ ok: false, detail: 'connection refused' })
  })

  it('passes the gate only when data arrives; a bare connection or a close fails it', () => {
    expect(gateVerdict({ bytes: 4, afterMs: 12 }, 25_000)).toEqual({ ok: true, detail: '4 byte(s) after 12 ms' })
    expect(gateVerdict({ timedOut: true }, 25_000).ok).toBe(false)
    expect(gateVerdict({ timedOut: true }, 25_000).detail).toMatch(/no data arrived within 25s/)
    expect(gateVerdict({ closed: true }, 25_000)).toEqual({ ok: false, detail: 'the connection closed before any data arrived' })
    // Refused is the signer's answer; any other port-forward error means the check could not run.
    expect(gateVerdict({ closed: true, error: 'dial tcp 10.0.0.5:26659: connect: connection refused' }, 25_000)).toEqual({
      ok: false,
      detail: 'dial tcp 10.0.0.5:26659: connect: connection refused',
    })
    expect(gateVerdict({ closed: true, error: 'pod not found' }, 25_000)).toEqual({
      ok: false,
      couldNotRun: true,
      detail: 'the check could not run: pod not found',
    })
  })
})
