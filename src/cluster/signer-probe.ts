import type { Connection } from './connection.js'
import { podFirstBytes, podGetOnce, type FirstBytes } from './pod-http.js'

export type { FirstBytes }

/** What a Pod's HTTP port answered through a port-forward: the status and the first line of the body, or why nothing did. */
export type HttpAnswer = { status: number; firstLine: string } | { error: string }

/** GET `path` on a Pod port through a port-forward that is closed before this returns. */
export async function getThroughForward(
  connection: Connection,
  namespace: string,
  pod: string,
  port: number,
  path: string,
  timeoutMs: number,
): Promise<HttpAnswer> {
  connection.onForward?.(namespace, pod, port)
  const answer = await podGetOnce({ server: connection.client.server, credentials: connection.credentials, namespace, pod, port }, path, {
    timeoutMs,
    maxBytes: 64 * 1024,
  })
  if (answer instanceof Error) return { error: answer.message }
  if (answer.status === 0) return { error: 'the answer was not HTTP' }
  return { status: answer.status, firstLine: answer.body.toString('utf8').trim().split('\n')[0] }
}

/** Connect to a Pod port through a port-forward and wait for its first bytes (a bare connection is not an answer). */
export function firstBytesThroughForward(connection: Connection, namespace: string, pod: string, port: number, timeoutMs: number): Promise<FirstBytes> {
  connection.onForward?.(namespace, pod, port)
  return podFirstBytes({ server: connection.client.server, credentials: connection.credentials, namespace, pod, port }, timeoutMs)
}
