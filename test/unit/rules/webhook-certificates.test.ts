import { X509Certificate } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { classifyReconcileError } from '../../../src/analysis/reconcile-causes.js'
import { onsetOf } from '../../../src/engine/define-rule.js'
import { reconcilerError } from '../../cluster/scenarios/lib/logfmt.js'
import { editable, findingsOf, findObject, runAllRules, useBundles } from '../../helpers/bundles.js'
import { appendReleaseManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

const load = useBundles('healthy', 'reconcile-failing')

describe('webhook-certificates and the TLS errors of calls that are no webhook', () => {
  // sc-healthy's fullnode-0 is reconciled by the release without a worker name.
  const RELEASE_POD = 'cosmopilot-8'
  const GENESIS_X509 =
    'failed to download genesis: Get "https://raw.githubusercontent.com/cosmos/mainnet/genesis.json": tls: failed to verify certificate: x509: certificate signed by unknown authority'
  const WEBHOOK_X509 =
    'Internal error occurred: failed calling webhook "vchainnode.kb.io": failed to call webhook: Post "https://cosmopilot-webhook.cosmopilot-system.svc:443/validate-cosmopilot-voluzi-com-v1-chainnode?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority'
  const failing = (error: string) => {
    const s = load('healthy')
    appendReleaseManagerLog(s, RELEASE_POD, [reconcilerError(dateBefore(s, 60), 'ChainNode', 'sc-healthy', 'fullnode-0', 'g1', error)])
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
      editable(s).find((o) => o.kind === 'Event' && o.involvedObject?.kind === 'ChainNode' && o.involvedObject.name === 'fullnode-0')!,
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
    const at = dateBefore(s, 60)
    const stamp = at.toISOString().replace('T', ' ').replace(/-/g, '/').slice(0, 19)
    appendReleaseManagerLog(s, RELEASE_POD, [{ at, text: `${stamp} http: TLS handshake error from 10.244.0.1:52144: remote error: tls: bad certificate` }])
    expect(findingsOf(s, 'webhook-certificates').map((f) => f.node.name)).toContain('fullnode-0')
  })
})

describe('webhook-certificates', () => {
  it('names an expired webhook CA as the cause, dated when it expired', () => {
    const s = load('reconcile-failing')
    const webhook = findObject(s, 'ValidatingWebhookConfiguration', 'cosmopilot-validating-webhook-cfg')
    const validTo = new X509Certificate(Buffer.from(webhook.webhooks[0].clientConfig.caBundle, 'base64')).validTo
    expect(findingsOf(s, 'webhook-certificates')).toEqual([])
    const [finding] = findingsOf(s, 'webhook-certificates', {}, Date.parse(validTo) + 86_400_000)
    expect(finding.cause).toBe(`the CA injected into the webhook expired on ${validTo}: the certificate manager no longer renews it`)
    expect(onsetOf(finding)).toBe(new Date(Date.parse(validTo)).toISOString())
  })
})
