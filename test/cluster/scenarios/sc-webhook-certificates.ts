/**
 * sc-webhook-certificates: a worker release `wh` installed without cert-manager. No Issuer or
 * Certificate exists, so nothing ever filled the serving-certificate Secret and nothing injects
 * the webhook caBundle (empty). The manager crash-loops on
 * `open /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory` /
 * `problem running manager`. ChainNode `wh-0` (worker-name=wh) was never reconciled: no Pod,
 * no status.
 */
import { zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, chainNodeObject } from './lib/node.js'
import {
  crashLoopManager,
  leaderElectionRole,
  leaderElectionRoleBinding,
  seedRelease,
  serviceAccount,
  validatingWebhookConfig,
  webhookService,
} from './lib/operator.js'
import { defineScenario } from './lib/scenario.js'
import type { Seeder } from './lib/seeder.js'
import { kubeletEvent, scheduledEvent } from './lib/events.js'
import { MIN, ago } from './lib/util.js'

const NS = 'sc-webhook-certificates'
const RELEASE = 'cosmopilot-wh'
const POD_AGE = 41 * MIN
const CERT_ERR = 'open /tmp/k8s-webhook-server/serving-certs/tls.crt: no such file or directory'

function runLog(startedAt: Date): LogLine[] {
  const at = (s: number) => new Date(startedAt.getTime() + s * 1000)
  return [
    zapJson(at(0.1), 'info', 'setup', 'starting manager', { version: '5.0.0', workerName: 'wh', workerCount: 10 }),
    zapJson(at(0.2), 'info', 'controller-runtime.webhook', 'Registering webhook', { path: '/validate-cosmopilot-voluzi-com-v1-chainnode' }),
    zapJson(at(0.2), 'info', 'controller-runtime.webhook', 'Registering webhook', { path: '/validate-cosmopilot-voluzi-com-v1-chainnodeset' }),
    zapJson(at(0.3), 'info', 'controller-runtime.metrics', 'Starting metrics server'),
    zapJson(at(0.3), 'info', undefined, 'starting server', { name: 'health probe', addr: '[::]:8081' }),
    zapJson(at(0.3), 'info', 'controller-runtime.webhook', 'Starting webhook server'),
    zapJson(at(0.3), 'info', 'controller-runtime.metrics', 'Serving metrics server', { bindAddress: ':8080', secure: false }),
    zapJson(at(0.4), 'info', undefined, 'Stopping and waiting for non leader election runnables'),
    zapJson(at(0.4), 'info', undefined, 'Stopping and waiting for leader election runnables'),
    zapJson(at(0.4), 'info', undefined, 'Stopping and waiting for caches'),
    zapJson(at(0.4), 'info', undefined, 'Stopping and waiting for webhooks'),
    zapJson(at(0.4), 'info', undefined, 'Stopping and waiting for HTTP servers'),
    zapJson(at(0.4), 'info', 'controller-runtime.metrics', 'Shutting down metrics server with timeout of 1 minute'),
    zapJson(at(0.4), 'info', undefined, 'shutting down server', { name: 'health probe', addr: '[::]:8081' }),
    zapJson(at(0.5), 'info', undefined, 'Wait completed, proceeding to shutdown the manager'),
    zapJson(at(0.5), 'error', 'setup', 'problem running manager', { error: CERT_ERR }),
  ]
}

async function seedWh(s: Seeder) {
  const rel = await seedRelease(s, {
    release: RELEASE,
    namespace: NS,
    workerName: 'wh',
    replicas: 1,
    unmanaged: true,
    podAgeSeconds: POD_AGE,
    podStatus: (pod) => crashLoopManager(s, pod, { podIP: '10.244.1.150', restarts: 12, lastExitAgo: 140, startedAgo: POD_AGE }),
  })
  return rel.pods[0]
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'wh-0',
    symptomRule: 'webhook-certificates',
    description:
      'Worker release cosmopilot-wh without cert-manager: no Issuer/Certificate, empty webhook caBundle, manager CrashLoopBackOff with "tls.crt: no such file or directory" / "problem running manager"; ChainNode wh-0 (worker-name=wh) has no Pod and no status.',
  },

  async seed(s) {
    const [pod] = await Promise.all([
      seedWh(s),
      s.create(
        chainNodeObject(s, {
          name: 'wh-0',
          chainID: 'cosmoshub-4',
          app: GAIA,
          labels: { 'worker-name': 'wh' },
          spec: {
            genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: 'cosmoshub-4' },
            persistence: { size: '500Gi', storageClass: 'expandable' },
          },
        }),
      ),
      s.create(serviceAccount(RELEASE, NS)),
      s.create(leaderElectionRole(RELEASE, NS)),
      s.create(leaderElectionRoleBinding(RELEASE, NS)),
      s.create(webhookService(RELEASE, NS)),
      // The volume's Secret exists (pre-created, empty): nothing ever issued the certificate.
      s.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: `${RELEASE}-cert`, namespace: NS }, type: 'Opaque' }),
    ])
    const lastStart = ago(s.now, 142)
    const prevStart = ago(s.now, 142 + 300)
    await Promise.all([
      s.logs(pod.metadata.name, { manager: { current: runLog(lastStart), previous: runLog(prevStart) } }),
      scheduledEvent(s, pod, POD_AGE + 1),
      kubeletEvent(s, pod, 'Pulled', 'Container image "ghcr.io/voluzi/cosmopilot:5.0.0" already present on machine', {
        container: 'manager',
        count: 13,
        firstAgo: POD_AGE - 1,
        lastAgo: 142,
      }),
      kubeletEvent(s, pod, 'Created', 'Created container: manager', { container: 'manager', count: 13, firstAgo: POD_AGE - 1, lastAgo: 142 }),
      kubeletEvent(s, pod, 'Started', 'Started container manager', { container: 'manager', count: 13, firstAgo: POD_AGE - 1, lastAgo: 142 }),
      kubeletEvent(s, pod, 'BackOff', `Back-off restarting failed container manager in pod ${pod.metadata.name}_${NS}(${pod.metadata.uid})`, {
        container: 'manager',
        type: 'Warning',
        count: 187,
        firstAgo: POD_AGE - 20,
        lastAgo: 3,
      }),
    ])
  },

  /** The worker's webhook configuration: objectSelector worker-name=wh, caBundle empty (nothing injects it). */
  async finalize(s) {
    await s.create(validatingWebhookConfig({ release: RELEASE, namespace: NS, workerName: 'wh', caBundle: '' }))
  },
})
