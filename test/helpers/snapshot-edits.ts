import type { ProbeRecord, Snapshot } from '../../src/snapshot/types.js'
import type { LogLine } from '../cluster/scenarios/lib/logfmt.js'
import { editable, type Editable, findObject } from './bundles.js'

// Edits the rule tests make to a recorded bundle, shared by the rules' test files that need the same change.

export const secondsBefore = (s: Snapshot, secondsAgo: number) => new Date(Date.parse(s.collectedAt) - secondsAgo * 1000).toISOString()
export const MINUTE = 60
/** The current (not previous) log of one container of a Pod. */
export function currentLog(s: Snapshot, pod: string, container: string) {
  return s.logs.find((l) => l.pod === pod && l.container === container && !l.previous)!
}
export function setReady(pod: Editable, ready: boolean): void {
  for (const c of pod.status.conditions) if (c.type === 'Ready' || c.type === 'ContainersReady') c.status = ready ? 'True' : 'False'
}
/** A readiness failure kubelet recorded on the Pod, last seen `lastAgo` seconds before collection. */
export function readinessEvent(s: Snapshot, pod: Editable, statusCode: number, lastAgo: number): void {
  s.objects.push({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${pod.metadata.name}.readiness${statusCode}`, namespace: pod.metadata.namespace },
    involvedObject: { kind: 'Pod', namespace: pod.metadata.namespace, name: pod.metadata.name, uid: pod.metadata.uid, fieldPath: 'spec.containers{app}' },
    reason: 'Unhealthy',
    type: 'Warning',
    message: `Readiness probe failed: HTTP probe failed with statuscode: ${statusCode}`,
    firstTimestamp: secondsBefore(s, lastAgo + 5 * MINUTE),
    lastTimestamp: secondsBefore(s, lastAgo),
    count: 30,
  })
}

export const SIGNER_0_2 = 'ghcr.io/voluzi/cosmosigner:0.2.1'
export const NODE_UTILS_2_10 = 'ghcr.io/voluzi/node-utils:2.10.0'
/** The signer-pubkey bundle as the 3.0.0 operator lays it out: wait-for-dns gate, TMKMS_PROXY, cosmosigner 0.2.x. */
export function onThreeLine(s: Snapshot): Snapshot {
  const pod = findObject(s, 'Pod', 'val-1')
  for (const c of pod.spec.initContainers) {
    if (c.name === 'wait-cosmosigner-discovery') {
      c.args = ['wait-for-dns', 'val-1-signer-privval.sc-signer-pubkey.svc', '$(POD_IP)', '25s']
      c.image = NODE_UTILS_2_10
    }
    if (c.name === 'node-utils') {
      c.image = NODE_UTILS_2_10
      c.env = [...(c.env ?? []), { name: 'TMKMS_PROXY', value: 'true' }]
    }
  }
  for (const status of pod.status.initContainerStatuses ?? []) status.image = NODE_UTILS_2_10
  for (const o of editable(s)) {
    const spec = o.kind === 'StatefulSet' ? o.spec.template.spec : o.kind === 'Pod' ? o.spec : undefined
    for (const c of spec?.containers ?? []) if (c.name === 'cosmosigner') c.image = SIGNER_0_2
  }
  return s
}

export const dateBefore = (s: Snapshot, seconds: number) => new Date(Date.parse(s.collectedAt) - seconds * 1000)
/** Lines the manager of the release in `pod` logged after the bundle was recorded. */
export function appendReleaseManagerLog(s: Snapshot, pod: string, lines: LogLine[]): void {
  const log = s.logs.find((l) => l.container === 'manager' && l.pod.startsWith(pod))!
  log.text += lines.map((l) => `${l.at.toISOString()} ${l.text}\n`).join('')
}
/** Lines the operator logged after the bundle was recorded, in the bundle's (first) manager log. */
export const appendManagerLog = (s: Snapshot, lines: LogLine[]): void => appendReleaseManagerLog(s, '', lines)

/** fullnode-0's chain probe as a run writes it when the node's RPC gave no answer, for this reason. */
export const failedChainProbe = (detail: string, at: string): ProbeRecord => ({
  kind: 'chain',
  namespace: 'sc-healthy',
  pod: 'fullnode-0',
  target: 'pod/fullnode-0:26657',
  ok: false,
  detail,
  at,
  chain: { problems: [detail] },
})
