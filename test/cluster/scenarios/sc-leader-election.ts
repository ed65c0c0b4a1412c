/**
 * sc-leader-election: a second operator release for worker `le` runs 2 replicas in this
 * namespace but none of them can take the Lease `le.cosmopilot.cosmopilot.voluzi.com`: its
 * leader-election RoleBinding is gone, so both replicas log `attempting to acquire leader lease`,
 * a forbidden error and `failed to acquire lease`. The Lease still names a pod that no longer
 * exists and was last renewed 10 minutes ago. ChainNode `le-0` (worker-name=le) keeps a stale status.
 */
import { cnEvent } from './lib/events.js'
import { klog, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA } from './lib/node.js'
import { chainHeight } from './lib/nodelogs.js'
import { holderIdentity, lease, leaderElectionRole, seedRelease, serviceAccount, webhookService } from './lib/operator.js'
import { runningPodStatus } from './lib/podstatus.js'
import { seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, MIN, ago, k8sSuffix, templateHash } from './lib/util.js'

const NS = 'sc-leader-election'
const RELEASE = 'cosmopilot-le'
const LEASE = 'le.cosmopilot.cosmopilot.voluzi.com'
const REPLICA_AGE = 14 * MIN
const LOST_AGO = 10 * MIN
const GONE_POD = `${RELEASE}-${templateHash('previous/le')}-${k8sSuffix('previous/le/0')}`

const NODE: RunningNode = {
  opts: {
    name: 'le-0',
    chainID: 'cosmoshub-4',
    app: GAIA,
    labels: { 'worker-name': 'le' },
    spec: {
      genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: 'cosmoshub-4' },
      persistence: { size: '1Ti', storageClass: 'expandable' },
    },
  },
  age: 8 * DAY,
  podIP: '10.244.1.140',
  size: '1Ti',
  usage: '58%',
  events: false,
}

function replicaLogs(now: Date, offset: number): LogLine[] {
  const start = ago(now, REPLICA_AGE - offset)
  const at = (s: number) => new Date(start.getTime() + s * 1000)
  const desc = `${NS}/${LEASE}`
  const forbidden = `leases.coordination.k8s.io "${LEASE}" is forbidden: User "system:serviceaccount:${NS}:${RELEASE}" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "${NS}"`
  const out: LogLine[] = [
    zapJson(at(0.1), 'info', 'setup', 'starting manager', { version: '5.0.0', workerName: 'le', workerCount: 10 }),
    zapJson(at(0.3), 'info', 'controller-runtime.metrics', 'Starting metrics server'),
    zapJson(at(0.3), 'info', undefined, 'starting server', { name: 'health probe', addr: '[::]:8081' }),
    zapJson(at(0.3), 'info', 'controller-runtime.webhook', 'Starting webhook server'),
    zapJson(at(0.4), 'info', 'controller-runtime.webhook', 'Serving webhook server', { host: '', port: 9443 }),
    klog(at(0.5), 'I', 'leaderelection.go:257', `attempting to acquire leader lease ${desc}...`),
  ]
  // RetryPeriod 2s; keep the last few minutes of the loop.
  const from = Math.max(1, REPLICA_AGE - offset - 240)
  for (let t = from; t < REPLICA_AGE - offset; t += 2) {
    out.push(
      klog(at(t), 'E', 'leaderelection.go:436', `error retrieving resource lock ${desc}: ${forbidden}`),
      klog(at(t + 0.001), 'I', 'leaderelection.go:297', `failed to acquire lease ${desc}`),
    )
  }
  return out
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'le-0',
    symptomRule: 'leader-election',
    description:
      'Worker release cosmopilot-le (WORKER_NAME=le, 2 replicas running) cannot acquire Lease le.cosmopilot.cosmopilot.voluzi.com (holder pod gone, renewTime 10 min old; RoleBinding missing, replicas log forbidden / failed to acquire lease); ChainNode le-0 (worker-name=le) has a stale status.',
  },

  async seed(s) {
    const [rel, node] = await Promise.all([
      seedRelease(s, {
        release: RELEASE,
        namespace: NS,
        workerName: 'le',
        replicas: 2,
        podAgeSeconds: REPLICA_AGE,
        podStatus: (pod, i) => runningPodStatus(pod, { now: s.now, ageSeconds: REPLICA_AGE - i * 7, podIP: `10.244.1.${141 + i}` }),
      }),
      seedRunningNode(s, {
        ...NODE,
        stack: { status: { phase: 'Running', latestHeight: chainHeight('cosmoshub-4', ago(s.now, LOST_AGO + 40)) } },
      }),
      s.create(serviceAccount(RELEASE, NS)),
      s.create(leaderElectionRole(RELEASE, NS)),
      s.create(webhookService(RELEASE, NS)),
      s.create(lease(s, { name: LEASE, namespace: NS, holder: holderIdentity(GONE_POD), acquiredAgo: 3 * DAY, renewedAgo: LOST_AGO, transitions: 2 })),
    ])
    await Promise.all([
      ...rel.pods.map((p, i) => s.logs(p.metadata.name, { manager: { current: replicaLogs(s.now, i * 7) } })),
      cnEvent(s, node.cn, 'NodeStarted', 'Node successfully started', { firstAgo: NODE.age - 40 }),
      cnEvent(s, node.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: NODE.age - 3600 }),
    ])
  },
})
