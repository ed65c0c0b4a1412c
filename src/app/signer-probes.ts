import type { Connection } from '../cluster/connection.js'
import { firstBytesThroughForward, getThroughForward, type FirstBytes, type HttpAnswer } from '../cluster/signer-probe.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { signerOf, signerTargets, SIGNER_PORT } from '../analysis/signer-context.js'
import type { KubeObject, ProbeRecord, Snapshot } from '../snapshot/types.js'

export const SIGNER_HTTP_PORT = 8080

export interface ProbeOptions {
  gateTimeoutMs: number
  httpTimeoutMs?: number
}

/**
 * Active checks of the remote signer path of every signer-target node in the snapshot:
 * /livez and /readyz on 8080 of each signer Pod, and the gate test on 26659 (data must arrive).
 * Each check goes through a port-forward that is closed before the next.
 */
export async function probeSigners(connection: Connection, snapshot: Snapshot, options: ProbeOptions): Promise<ProbeRecord[]> {
  const index = new SnapshotIndex(snapshot)
  const signers = new Map<string, ReturnType<typeof signerOf>>()
  for (const node of index.chainNodes()) {
    const signer = signerOf(index, node, index.podOf(node))
    if (signer) signers.set(`${node.metadata.namespace}/${signer.name}`, signer)
  }
  const records: ProbeRecord[] = []
  for (const [key, signer] of signers) {
    const namespace = key.split('/')[0]
    for (const pod of signer!.pods) {
      for (const path of ['/livez', '/readyz']) {
        records.push(await probeHttp(connection, namespace, pod.metadata.name, path, options.httpTimeoutMs ?? 5000))
      }
    }
    for (const pod of signerTargets(index, node(index, namespace), signer!.name))
      records.push(await probeGate(connection, namespace, pod, options.gateTimeoutMs))
  }
  return records
}

async function probeHttp(connection: Connection, namespace: string, pod: string, path: string, timeoutMs: number): Promise<ProbeRecord> {
  const base = { kind: 'signer-http' as const, namespace, pod, target: `pod/${pod}:${SIGNER_HTTP_PORT}${path}`, at: new Date().toISOString() }
  return { ...base, ...httpVerdict(await getThroughForward(connection, namespace, pod, SIGNER_HTTP_PORT, path, timeoutMs)) }
}

/** A bare TCP connection does not pass the gate: at least one byte must arrive in time. */
async function probeGate(connection: Connection, namespace: string, pod: string, timeoutMs: number): Promise<ProbeRecord> {
  const base = { kind: 'signer-gate' as const, namespace, pod, target: `pod/${pod}:${SIGNER_PORT}`, at: new Date().toISOString() }
  return { ...base, ...gateVerdict(await firstBytesThroughForward(connection, namespace, pod, SIGNER_PORT, timeoutMs), timeoutMs) }
}

export function httpVerdict(answer: HttpAnswer): { ok: boolean; detail: string } {
  if ('error' in answer) return { ok: false, detail: answer.error }
  return { ok: answer.status === 200, detail: `HTTP ${answer.status}${answer.firstLine ? `: ${answer.firstLine}` : ''}` }
}

export function gateVerdict(answer: FirstBytes, timeoutMs: number): { ok: boolean; detail: string } {
  if ('bytes' in answer) return { ok: true, detail: `${answer.bytes} byte(s) after ${answer.afterMs} ms` }
  if ('timedOut' in answer)
    return { ok: false, detail: `connected, but no data arrived within ${timeoutMs / 1000}s (a bare connection does not pass the gate)` }
  return { ok: false, detail: answer.error ?? 'the connection closed before any data arrived' }
}

/** Any node of the namespace: signerTargets only reads its namespace. */
const node = (index: SnapshotIndex, namespace: string): KubeObject => index.chainNodes().find((n) => n.metadata.namespace === namespace)!
