import type { Connection } from '../cluster/connection.js'
import { firstBytesThroughForward, getThroughForward, type FirstBytes, type HttpAnswer } from '../cluster/signer-probe.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { signerOf, signerServesHttpHealth, signerTargets, SIGNER_PORT, type SignerContext } from '../analysis/signer-context.js'
import { detectOperatorLine } from '../snapshot/node-layout.js'
import type { ProbeRecord, Snapshot } from '../snapshot/types.js'
import type { ChainNode } from '../snapshot/kinds.js'

export const SIGNER_HTTP_PORT = 8080

export interface ProbeOptions {
  gateTimeoutMs: number
  httpTimeoutMs?: number
}

/** One check of the signer path: /livez or /readyz of a signer Pod, or the gate test of a target Pod. */
export type PlannedProbe = { kind: 'signer-http'; namespace: string; pod: string; path: string } | { kind: 'signer-gate'; namespace: string; pod: string }

/**
 * The checks of the remote signer path of every signer-target node in the snapshot: /livez and /readyz on 8080
 * of each signer Pod where the node's line serves them, and the gate test on 26659 of each target (data must arrive).
 */
export function planSignerProbes(snapshot: Snapshot): PlannedProbe[] {
  const index = new SnapshotIndex(snapshot)
  const signers = new Map<string, { signer: SignerContext; http: boolean }>()
  for (const node of index.chainNodes()) {
    const pod = index.podOf(node)
    const signer = signerOf(index, node, pod)
    if (!signer) continue
    const key = `${node.metadata.namespace}/${signer.name}`
    // One target Pod on the 3.x line is enough: that operator deploys cosmosigner 0.2.x, which has no HTTP health.
    const http = (signers.get(key)?.http ?? true) && signerServesHttpHealth(detectOperatorLine(node, pod))
    signers.set(key, { signer, http })
  }
  const plan: PlannedProbe[] = []
  for (const [key, { signer, http }] of signers) {
    const namespace = key.split('/')[0]
    if (http)
      for (const pod of signer.pods) for (const path of ['/livez', '/readyz']) plan.push({ kind: 'signer-http', namespace, pod: pod.metadata.name, path })
    for (const pod of signerTargets(index, node(index, namespace), signer.name)) plan.push({ kind: 'signer-gate', namespace, pod })
  }
  return plan
}

/** Checks in flight at once, each through its own port-forward, closed once it has its answer. */
const PARALLEL_CHECKS = 8

/** Runs the planned checks, PARALLEL_CHECKS at a time; the records come in the plan's order. */
export async function probeSigners(connection: Connection, snapshot: Snapshot, options: ProbeOptions): Promise<ProbeRecord[]> {
  const plan = planSignerProbes(snapshot)
  const records: ProbeRecord[] = new Array<ProbeRecord>(plan.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < plan.length; i = next++) {
      const probe = plan[i]
      records[i] =
        probe.kind === 'signer-http'
          ? await probeHttp(connection, probe.namespace, probe.pod, probe.path, options.httpTimeoutMs ?? 5000)
          : await probeGate(connection, probe.namespace, probe.pod, options.gateTimeoutMs)
    }
  }
  await Promise.all(Array.from({ length: Math.min(PARALLEL_CHECKS, plan.length) }, worker))
  return records
}

async function probeHttp(connection: Connection, namespace: string, pod: string, path: string, timeoutMs: number): Promise<ProbeRecord> {
  const base = { kind: 'signer-http' as const, namespace, pod, target: `pod/${pod}:${SIGNER_HTTP_PORT}${path}`, at: new Date().toISOString() }
  return { ...base, ...httpVerdict(await getThroughForward(connection, namespace, pod, SIGNER_HTTP_PORT, path, timeoutMs)) }
}

/** A bare TCP connection does not pass the gate: at least one byte must arrive in time. */
async function probeGate(connection: Connection, namespace: string, pod: string, timeoutMs: number): Promise<ProbeRecord> {
  const base = { kind: 'signer-gate' as const, namespace, pod, target: `pod/${pod}:${SIGNER_PORT}`, at: new Date().toISOString() }
  try {
    return { ...base, ...gateVerdict(await firstBytesThroughForward(connection, namespace, pod, SIGNER_PORT, timeoutMs), timeoutMs) }
  } catch (error) {
    return { ...base, ok: false, couldNotRun: true, detail: `the check could not run: ${error instanceof Error ? error.message : String(error)}` }
  }
}

export function httpVerdict(answer: HttpAnswer): { ok: boolean; detail: string } {
  if ('error' in answer) return { ok: false, detail: answer.error }
  return { ok: answer.status === 200, detail: `HTTP ${answer.status}${answer.firstLine ? `: ${answer.firstLine}` : ''}` }
}

export function gateVerdict(answer: FirstBytes, timeoutMs: number): { ok: boolean; detail: string; couldNotRun?: boolean } {
  if ('bytes' in answer) return { ok: true, detail: `${answer.bytes} byte(s) after ${answer.afterMs} ms` }
  if ('timedOut' in answer)
    return { ok: false, detail: `connected, but no data arrived within ${timeoutMs / 1000}s (a bare connection does not pass the gate)` }
  // Refused is the signer's answer (nothing listens on the port); any other port-forward error is the check failing to run.
  if (answer.error && !/connection refused/i.test(answer.error)) return { ok: false, couldNotRun: true, detail: `the check could not run: ${answer.error}` }
  return { ok: false, detail: answer.error ?? 'the connection closed before any data arrived' }
}

/** Any node of the namespace: signerTargets only reads its namespace. */
const node = (index: SnapshotIndex, namespace: string): ChainNode => index.chainNodes().find((n) => n.metadata.namespace === namespace)!
