import http from 'node:http'
import net from 'node:net'
import type { Connection } from './connection.js'
import { openPortForward } from './port-forward.js'

/** What a Pod's HTTP port answered through a port-forward: the status and the first line of the body, or why nothing did. */
export type HttpAnswer = { status: number; firstLine: string } | { error: string }

/** What a Pod's TCP port sent first through a port-forward within the time allowed. */
export type FirstBytes = { bytes: number; afterMs: number } | { timedOut: true } | { closed: true; error?: string }

/** GET `path` on a Pod port through a port-forward that is closed before this returns. */
export async function getThroughForward(
  connection: Connection,
  namespace: string,
  pod: string,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<HttpAnswer> {
  const forward = await openPortForward(connection.client.server, connection.credentials, namespace, pod, port)
  try {
    return await new Promise<HttpAnswer>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port: forward.localPort, path, agent: false }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, firstLine: text.trim().split('\n')[0] }))
      })
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000}s`)))
      req.on('error', (error) => resolve({ error: forward.errors[0] ?? error.message }))
    })
  } finally {
    await forward.close()
  }
}

/** Connect to a Pod port through a port-forward and wait for its first bytes (a bare connection is not an answer). */
export async function firstBytesThroughForward(connection: Connection, namespace: string, pod: string, port: number, timeoutMs: number): Promise<FirstBytes> {
  const forward = await openPortForward(connection.client.server, connection.credentials, namespace, pod, port)
  const started = Date.now()
  try {
    return await new Promise<FirstBytes>((resolve) => {
      const socket = net.connect(forward.localPort, '127.0.0.1')
      const done = (result: FirstBytes) => {
        clearTimeout(timer)
        socket.destroy()
        resolve(result)
      }
      const timer = setTimeout(() => done({ timedOut: true }), timeoutMs)
      socket.once('data', (chunk) => done({ bytes: chunk.length, afterMs: Date.now() - started }))
      socket.once('close', () => done({ closed: true, error: forward.errors[0] }))
      socket.once('error', (error) => done({ closed: true, error: forward.errors[0] ?? error.message }))
    })
  } finally {
    await forward.close()
  }
}
