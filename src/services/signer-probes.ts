import net from 'node:net'
import http from 'node:http'
import type { Connection } from '../base/kube-command.js'
import { openPortForward } from '../cluster/port-forward.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { signerOf, signerTargets, SIGNER_PORT } from '../rules/signer-context.js'
import type { KubeObject, ProbeRecord, Snapshot } from '../snapshot/types.js'

export const SIGNER_HTTP_PORT = 8080
/** The discovery gate's own limit (spec §8): data must arrive within 25 seconds. */
export const GATE_TIMEOUT_MS = 25_000

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
  const forward = await openPortForward(connection.client.server, connection.credentials, namespace, pod, SIGNER_HTTP_PORT)
  try {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.get({ host: '127.0.0.1', port: forward.localPort, path, agent: false }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.trim().split('\n')[0] }))
      })
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs / 1000}s`)))
      req.on('error', (error) => reject(new Error(forward.errors[0] ?? error.message)))
    })
    return { ...base, ok: status === 200, detail: `HTTP ${status}${body ? `: ${body}` : ''}` }
  } catch (error) {
    return { ...base, ok: false, detail: (error as Error).message }
  } finally {
    await forward.close()
  }
}

/** A bare TCP connection does not pass the gate: at least one byte must arrive in time. */
async function probeGate(connection: Connection, namespace: string, pod: string, timeoutMs: number): Promise<ProbeRecord> {
  const base = { kind: 'signer-gate' as const, namespace, pod, target: `pod/${pod}:${SIGNER_PORT}`, at: new Date().toISOString() }
  const forward = await openPortForward(connection.client.server, connection.credentials, namespace, pod, SIGNER_PORT)
  const started = Date.now()
  try {
    const detail = await new Promise<{ ok: boolean; detail: string }>((resolve) => {
      const socket = net.connect(forward.localPort, '127.0.0.1')
      const done = (result: { ok: boolean; detail: string }) => {
        socket.destroy()
        resolve(result)
      }
      const timer = setTimeout(
        () => done({ ok: false, detail: `connected, but no data arrived within ${timeoutMs / 1000}s (a bare connection does not pass the gate)` }),
        timeoutMs,
      )
      socket.once('data', (chunk) => {
        clearTimeout(timer)
        done({ ok: true, detail: `${chunk.length} byte(s) after ${Date.now() - started} ms` })
      })
      socket.once('close', () => {
        clearTimeout(timer)
        done({ ok: false, detail: forward.errors[0] ?? 'the connection closed before any data arrived' })
      })
      socket.once('error', (error) => {
        clearTimeout(timer)
        done({ ok: false, detail: forward.errors[0] ?? error.message })
      })
    })
    return { ...base, ...detail }
  } finally {
    await forward.close()
  }
}

/** Any node of the namespace: signerTargets only reads its namespace. */
const node = (index: SnapshotIndex, namespace: string): KubeObject => index.chainNodes().find((n) => n.metadata.namespace === namespace)!
