import type { Connection } from '../cluster/connection.js'
import { runSignerChecks, type FirstBytes, type HttpAnswer, type SignerAnswer, type SignerCheck, type SignerCheckOptions } from '../cluster/signer-probe.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { signerOf, signerServesHttpHealth, signerTargets, SIGNER_PORT, type SignerContext } from '../analysis/signer-context.js'
import { detectOperatorLine } from '../snapshot/node-layout.js'
import type { ProbeRecord, Snapshot } from '../snapshot/types.js'
import type { ChainNode } from '../snapshot/kinds.js'

export const SIGNER_HTTP_PORT = 8080

/**
 * The checks of the remote signer path of every signer-target node in the snapshot: /livez and /readyz on 8080
 * of each signer Pod where the node's line serves them, and the gate test on 26659 of each target (data must arrive).
 */
export function planSignerProbes(snapshot: Snapshot): SignerCheck[] {
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
  const plan: SignerCheck[] = []
  for (const [key, { signer, http }] of signers) {
    const namespace = key.split('/')[0]
    if (http)
      for (const pod of signer.pods)
        for (const path of ['/livez', '/readyz']) plan.push({ kind: 'signer-http', namespace, pod: pod.metadata.name, port: SIGNER_HTTP_PORT, path })
    for (const pod of signerTargets(index, node(index, namespace), signer.name)) plan.push({ kind: 'signer-gate', namespace, pod, port: SIGNER_PORT })
  }
  return plan
}

/** The signer path's checks (cluster/signer-probe.ts runs them), each answer turned into its probe record. */
export async function probeSigners(connection: Connection, snapshot: Snapshot, options: SignerCheckOptions): Promise<ProbeRecord[]> {
  const plan = planSignerProbes(snapshot)
  const answers = await runSignerChecks(connection, plan, options)
  return plan.map((check, i) => recordOf(check, answers[i], options.gateTimeoutMs))
}

function recordOf(check: SignerCheck, answer: SignerAnswer, gateTimeoutMs: number): ProbeRecord {
  const { kind, namespace, pod, port } = check
  const base = { kind, namespace, pod, target: `pod/${pod}:${port}${check.kind === 'signer-http' ? check.path : ''}`, at: answer.at }
  if ('http' in answer) return { ...base, ...httpVerdict(answer.http) }
  if ('gate' in answer) return { ...base, ...gateVerdict(answer.gate, gateTimeoutMs) }
  return { ...base, ok: false, couldNotRun: true, detail: `the check could not run: ${answer.failed}` }
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
