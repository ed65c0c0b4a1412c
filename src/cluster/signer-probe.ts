import type { Connection } from './connection.js'
import { podFirstBytes, podGetOnce, type FirstBytes } from './pod-http.js'

export type { FirstBytes }

/** One check of the signer path: /livez or /readyz of a signer Pod, or the gate test of a target Pod. */
export type SignerCheck =
  { kind: 'signer-http'; namespace: string; pod: string; port: number; path: string } | { kind: 'signer-gate'; namespace: string; pod: string; port: number }

/** What a Pod's HTTP port answered through a port-forward: the status and the first line of the body, or why nothing did. */
export type HttpAnswer = { status: number; firstLine: string } | { error: string }

/** What one check saw, and when it began; `failed` when the port-forward itself could not be made. */
export type SignerAnswer = { at: string } & ({ http: HttpAnswer } | { gate: FirstBytes } | { failed: string })

export interface SignerCheckOptions {
  gateTimeoutMs: number
  httpTimeoutMs?: number
}

/** Checks in flight at once, each through its own port-forward, closed once it has its answer. */
const PARALLEL_CHECKS = 8

/** Runs the checks, PARALLEL_CHECKS at a time; the answers come in the checks' order. */
export async function runSignerChecks(connection: Connection, checks: SignerCheck[], options: SignerCheckOptions): Promise<SignerAnswer[]> {
  const answers = new Array<SignerAnswer>(checks.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < checks.length; i = next++) answers[i] = await runCheck(connection, checks[i], options)
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, checks.length) }, worker))
  return answers
}

async function runCheck(connection: Connection, check: SignerCheck, options: SignerCheckOptions): Promise<SignerAnswer> {
  const at = new Date().toISOString()
  connection.onForward?.(check.namespace, check.pod, check.port)
  const target = { server: connection.client.server, credentials: connection.credentials, namespace: check.namespace, pod: check.pod, port: check.port }
  if (check.kind === 'signer-http') {
    const answer = await podGetOnce(target, check.path, { timeoutMs: options.httpTimeoutMs ?? 5000, maxBytes: 64 * 1024 })
    if (answer instanceof Error) return { at, http: { error: answer.message } }
    if (answer.status === 0) return { at, http: { error: 'the answer was not HTTP' } }
    return { at, http: { status: answer.status, firstLine: answer.body.toString('utf8').trim().split('\n')[0] } }
  }
  try {
    return { at, gate: await podFirstBytes(target, options.gateTimeoutMs) }
  } catch (error) {
    return { at, failed: error instanceof Error ? error.message : String(error) }
  }
}
