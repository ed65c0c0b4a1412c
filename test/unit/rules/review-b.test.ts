import { describe, expect, it } from 'vitest'
import { classifyReconcileError } from '../../../src/analysis/reconcile-causes.js'
import { statusRows } from '../../../src/render/status.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { reconcileFields, reconcilerError, zapJson, type LogLine } from '../../cluster/scenarios/lib/logfmt.js'
import { QUOTA_ERROR } from '../../cluster/scenarios/sc-reconcile-failing.js'
import { findingsOf, findObject, runAllRules, useBundles } from '../../helpers/bundles.js'

const load = useBundles('healthy', 'reconcile-failing')
const ago = (s: Snapshot, seconds: number) => new Date(Date.parse(s.collectedAt) - seconds * 1000)

/** Lines the manager of the release in `pod` logged after the bundle was recorded. */
function appendManagerLog(s: Snapshot, pod: string, lines: LogLine[]): void {
  const log = s.logs.find((l) => l.container === 'manager' && l.pod.startsWith(pod))!
  log.text += lines.map((l) => `${l.at.toISOString()} ${l.text}\n`).join('')
}

describe('webhook-certificates and the TLS errors of calls that are no webhook', () => {
  // sc-healthy's fullnode-0 is reconciled by the release without a worker name.
  const RELEASE_POD = 'cosmopilot-8'
  const GENESIS_X509 =
    'failed to download genesis: Get "https://raw.githubusercontent.com/cosmos/mainnet/genesis.json": tls: failed to verify certificate: x509: certificate signed by unknown authority'
  const WEBHOOK_X509 =
    'Internal error occurred: failed calling webhook "vchainnode.kb.io": failed to call webhook: Post "https://cosmopilot-webhook.cosmopilot-system.svc:443/validate-cosmopilot-voluzi-com-v1-chainnode?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority'
  const failing = (error: string) => {
    const s = load('healthy')
    appendManagerLog(s, RELEASE_POD, [reconcilerError(ago(s, 60), 'ChainNode', 'sc-healthy', 'fullnode-0', 'g1', error)])
    return s
  }

  it('a genesis download refused by its certificate is a genesis failure, not the webhook certificates', () => {
    const s = failing(GENESIS_X509)
    expect(findingsOf(s, 'webhook-certificates')).toEqual([])
    const [reconcile] = findingsOf(s, 'reconcile-failing')
    expect(reconcile.data).toMatchObject({ node: 'fullnode-0', cause: 'genesis' })
    expect(classifyReconcileError(GENESIS_X509).cause).toBe('genesis')
  })

  it('a GenesisError Event with an x509 error is no webhook trouble either', () => {
    const s = load('healthy')
    const event = structuredClone(
      s.objects.find((o) => o.kind === 'Event' && o.involvedObject?.kind === 'ChainNode' && o.involvedObject.name === 'fullnode-0')!,
    )
    Object.assign(event, { reason: 'GenesisError', message: `Failed to download genesis from URL: ${GENESIS_X509}` })
    event.metadata = { ...event.metadata, name: 'fullnode-0.genesis-error', uid: 'genesis-error-event' }
    s.objects.push(event)
    expect(findingsOf(s, 'webhook-certificates')).toEqual([])
  })

  it('a webhook call failing on its certificate still is, and explains the reconcile failure', () => {
    const s = failing(WEBHOOK_X509)
    expect(findingsOf(s, 'webhook-certificates').map((f) => f.node.name)).toContain('fullnode-0')
    expect(runAllRules(s).suppressed).toContainEqual(expect.objectContaining({ ruleId: 'reconcile-failing', by: 'webhook-certificates' }))
    expect(classifyReconcileError(WEBHOOK_X509)).toEqual({ cause: 'webhook', object: 'vchainnode.kb.io' })
  })

  const callRefused = (host: string) =>
    `Internal error occurred: failed calling webhook "vchainnode.kb.io": failed to call webhook: Post "https://${host}:443/validate?timeout=10s": dial tcp 10.96.0.1:443: connect: connection refused`

  it("another product's webhook that is down is not this operator's certificates", () => {
    const s = failing(callRefused('kyverno-svc.kyverno.svc'))
    expect(findingsOf(s, 'webhook-certificates')).toEqual([])
    expect(findingsOf(s, 'reconcile-failing')[0].data).toMatchObject({ node: 'fullnode-0', cause: 'webhook' })
  })

  it("the release's own webhook refusing calls is (a manager without certificates does not serve)", () => {
    const s = failing(callRefused('cosmopilot-webhook.cosmopilot-system.svc'))
    expect(findingsOf(s, 'webhook-certificates').map((f) => f.node.name)).toContain('fullnode-0')
  })

  it("the API server refusing the webhook server's certificate is", () => {
    const s = load('healthy')
    const at = ago(s, 60)
    const stamp = at.toISOString().replace('T', ' ').replace(/-/g, '/').slice(0, 19)
    appendManagerLog(s, RELEASE_POD, [{ at, text: `${stamp} http: TLS handshake error from 10.244.0.1:52144: remote error: tls: bad certificate` }])
    expect(findingsOf(s, 'webhook-certificates').map((f) => f.node.name)).toContain('fullnode-0')
  })
})

describe('reconcile-failing and a ChainNodeSet that failed once and recovered', () => {
  const NS = 'sc-reconcile-failing'
  const SET_ERROR = 'Operation cannot be fulfilled on chainnodesets "hub": StorageError: invalid object'
  /** quota-0 as a child of set hub, whose reconcile failed a minute ago and went through since. */
  const childOfRecoveredSet = () => {
    const s = load('reconcile-failing')
    findObject(s, 'ChainNode', 'quota-0').metadata.labels = { nodeset: 'hub', group: 'full' }
    s.objects.push({ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNodeSet', metadata: { name: 'hub', namespace: NS }, spec: {} })
    appendManagerLog(s, 'cosmopilot-', [
      reconcilerError(ago(s, 60), 'ChainNodeSet', NS, 'hub', 's1', SET_ERROR),
      zapJson(ago(s, 30), 'info', undefined, 'finishing reconcile', reconcileFields('ChainNodeSet', NS, 'hub', 's2')),
    ])
    return s
  }

  it("reports the node's own failing run, not the set's error that has recovered", () => {
    const [finding] = findingsOf(childOfRecoveredSet(), 'reconcile-failing')
    expect(finding.data).toMatchObject({ object: 'ChainNode/quota-0', cause: 'quota' })
    expect(finding.summary).toContain(QUOTA_ERROR)
    expect(finding.evidence.filter((e) => e.kind === 'log').map((e) => e.source)).toEqual(['Reconciler error on ChainNode/quota-0'])
  })

  it("status shows the node's error under the table, not the set's", () => {
    const s = childOfRecoveredSet()
    const row = statusRows(new SnapshotIndex(s)).find((r) => r.name === 'quota-0')!
    expect(row.operatorError?.error).toContain(QUOTA_ERROR)
  })
})
