import { refOf } from '../snapshot/index.js'
import { containerEnv } from '../snapshot/node-layout.js'
import type { KubeObject } from '../snapshot/types.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import { operatorLogs } from '../analysis/operator-logs.js'
import { escapeRegExp } from '../util/regexp.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { matchingEvents } from '../snapshot/events.js'
import type { WebhookConfiguration } from '../snapshot/kinds.js'

/**
 * Certificate failures of the webhook server only: the manager also logs healthy certificate reloads at
 * info level, and TLS errors of its own downloads and calls (genesis, Vault, RPC) that name no webhook.
 */
// A line that names the serving-certificate files and a failure, or a webhook (or a client's handshake with
// the webhook server) failing on a certificate, in any order. Lookaheads from the line's start: a
// `failure.*file` alternation would rescan the rest of the line at every "error" in a log.
const CERT_TROUBLE =
  /^(?=.*(?:serving-certs|tls\.(?:crt|key)))(?=.*(?:no such file|not found|missing|error|failed|unable|expired|invalid))|^(?=.*(?:webhook|http: TLS handshake error))(?=.*(?:x509|certificate))(?=.*(?:x509|error|failed|unable|expired|invalid|bad|unknown))/i
/**
 * A word every branch needs (a call that failed names the webhook too): most lines of a manager log hold
 * none, and one scan for it costs a third of the branches' own lookaheads, which each rescan the line.
 */
const TROUBLE_WORD = 'serving-certs|tls\\.(?:crt|key)|webhook|http: TLS handshake error'
/** The branches behind one test of TROUBLE_WORD. */
const guarded = (branches: string) => new RegExp(`^(?=.*(?:${TROUBLE_WORD}))(?:${branches})`, 'i')
const CERT_TROUBLE_GUARDED = guarded(CERT_TROUBLE.source)

/**
 * CERT_TROUBLE, or a call to one of this release's own webhooks that failed (whatever the reason: a manager
 * without certificates does not serve). A failed call to another product's webhook (a policy engine that
 * is down) says nothing about the operator's certificates. One pattern per webhook configuration.
 */
function troubleOf(webhook: WebhookConfiguration | undefined): RegExp {
  if (!webhook) return CERT_TROUBLE_GUARDED
  let pattern = troublePatterns.get(webhook)
  if (!pattern) {
    // The API server's message names the webhook's address; its name is no help (kubebuilder names every
    // release's webhooks alike, vchainnode.kb.io).
    const names = (webhook.webhooks ?? []).flatMap((hook) => {
      const { service, url } = hook.clientConfig ?? {}
      return [service?.name && service.namespace ? `${service.name}.${service.namespace}.svc` : undefined, url].filter(Boolean) as string[]
    })
    const ownCalls = names.length ? `|^(?=.*failed calling webhook)(?=.*(?:${names.map(escapeRegExp).join('|')}))` : ''
    pattern = guarded(`${CERT_TROUBLE.source}${ownCalls}`)
    troublePatterns.set(webhook, pattern)
  }
  return pattern
}
const troublePatterns = new WeakMap<WebhookConfiguration, RegExp>()

/** The webhook configuration of an operator release: the chart names it <release>-validating-webhook-cfg. */
export function webhookConfigOf(operator: KubeObject, all: WebhookConfiguration[]): WebhookConfiguration | undefined {
  return (
    all.find((cfg) => cfg.metadata.name === `${operator.metadata.name}-validating-webhook-cfg`) ??
    all.find((cfg) => (cfg.webhooks ?? []).some((hook) => hook.clientConfig?.service?.namespace === operator.metadata.namespace))
  )
}

/** When the CA injected into a webhook stops being valid; undefined when it cannot be read. */
function caExpiry(caBundle: string): string | undefined {
  // One webhook serves every node of a fleet: parse its CA once.
  if (!expiries.has(caBundle)) {
    try {
      expiries.set(caBundle, new (process.getBuiltinModule('node:crypto').X509Certificate)(Buffer.from(caBundle, 'base64')).validTo)
    } catch {
      expiries.set(caBundle, undefined)
    }
  }
  return expiries.get(caBundle)
}
const expiries = new Map<string, string | undefined>()

export default defineRule<{ operator: string; webhook?: string; emptyCaBundle: boolean; expired?: string; certManagerMissing: boolean; logMentions: number }>({
  id: 'webhook-certificates',
  title: 'Admission webhooks have no valid serving certificates',
  severity: 'error',
  specRow: 'Creating ChainNode/ChainNodeSet fails with a webhook error, or nothing happens and manager logs mention certificates',
  explains: ['phase-stuck', 'leader-election'],
  logs: ['operator'],
  check({ index, node, now }) {
    const operator = index.operatorFor(node)
    if (!operator) return []
    const manager = (operator.spec?.template?.spec?.containers ?? []).find((c) => c.name === 'manager')
    if (containerEnv(manager, 'DISABLE_WEBHOOKS') === 'true') return []
    const webhook = webhookConfigOf(operator, index.list('ValidatingWebhookConfiguration'))
    const bundles = (webhook?.webhooks ?? []).map((hook) => hook.clientConfig?.caBundle ?? '')
    const emptyCaBundle = bundles.some((bundle) => !bundle)
    const expired = bundles.map((bundle) => caExpiry(bundle)).find((validTo) => validTo !== undefined && Date.parse(validTo) < now)
    const injectFrom = webhook?.metadata.annotations?.['cert-manager.io/inject-ca-from']
    const certificates = index.list('Certificate', operator.metadata.namespace)
    const certManagerMissing = Boolean(injectFrom) && !certificates.some((cert) => `${cert.metadata.namespace}/${cert.metadata.name}` === injectFrom)
    const trouble = troubleOf(webhook)
    const logs = operatorLogs(index, operator, trouble)
    const webhookEvents = matchingEvents(index, node, (e) => trouble.test(e.message ?? ''))
    if (!emptyCaBundle && !expired && logs.length === 0 && webhookEvents.length === 0) return []
    const evidence: Evidence[] = [
      ...(webhook ? [field(webhook, 'webhooks[].clientConfig.caBundle', emptyCaBundle ? '' : expired ? `expired ${expired}` : '(set)')] : []),
      ...(injectFrom ? [field(webhook!, 'annotations["cert-manager.io/inject-ca-from"]', injectFrom)] : []),
      ...(certManagerMissing
        ? [
            {
              kind: 'missing' as const,
              source: `Certificate ${injectFrom}`,
              text: 'the certificate the CA is injected from does not exist (is cert-manager installed?)',
            },
          ]
        : []),
      ...logs,
      ...webhookEvents.map(eventEvidence),
    ]
    return [
      {
        subject: refOf(operator),
        data: {
          operator: `${operator.metadata.namespace}/${operator.metadata.name}`,
          webhook: webhook?.metadata.name,
          emptyCaBundle,
          expired,
          certManagerMissing,
          logMentions: logs.length,
        },
        evidence,
        // An expired CA broke the webhooks the moment it expired, whatever the logs say since.
        ...(expired ? { since: new Date(Date.parse(expired)).toISOString() } : {}),
      },
    ]
  },
  summary: (d) => `operator ${d.operator}: webhook ${d.webhook ?? '(configuration)'} has no valid serving certificate`,
  cause: (d) =>
    d.expired
      ? `the CA injected into the webhook expired on ${d.expired}: the certificate manager no longer renews it`
      : d.certManagerMissing || d.emptyCaBundle
        ? 'certificates missing: the certificate manager did not issue or inject the webhook serving certificate'
        : 'the manager logs report certificate errors for its webhook server',
  action: () => 'Install the certificate manager before the operator, or disable the webhooks with the install-time value webHooksEnabled=false.',
})
