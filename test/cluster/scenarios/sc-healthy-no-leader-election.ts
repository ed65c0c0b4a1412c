/**
 * sc-healthy-no-leader-election: worker release `cosmopilot-solo` (WORKER_NAME=solo) was installed
 * without the chart's ENABLE_LEADER_ELECTION=true: one manager, no leader election (the binary's
 * default), so no Lease exists and none is needed. Its build logs `ts` as RFC 3339
 * (controller-runtime's default encoder). ChainNode `solo-0` runs; one reconcile two hours ago hit an
 * update conflict, and every reconcile since went through. Nothing is wrong here.
 */
import { reconcileFields, reconcilerError, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA } from './lib/node.js'
import { seedRelease, serviceAccount } from './lib/operator.js'
import { runningPodStatus } from './lib/podstatus.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR, MIN, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-healthy-no-leader-election'
const RELEASE = 'cosmopilot-solo'
const MANAGER_AGE = 6 * HOUR

const NODE: RunningNode = {
  opts: {
    name: 'solo-0',
    chainID: 'cosmoshub-4',
    app: GAIA,
    labels: { 'worker-name': 'solo' },
    spec: {
      genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: 'cosmoshub-4' },
      persistence: { size: '1Ti', storageClass: 'expandable' },
    },
  },
  age: 2 * DAY,
  podIP: '10.244.1.160',
  size: '1Ti',
  usage: '41%',
}

function managerLog(now: Date): LogLine[] {
  const start = ago(now, MANAGER_AGE)
  const at = (sec: number) => new Date(start.getTime() + sec * 1000)
  const z = (when: Date, level: string, logger: string | undefined, msg: string, fields = {}) => zapJson(when, level, logger, msg, fields, 'rfc3339')
  const ctl = (kind: 'ChainNode' | 'ChainNodeSet') => ({ controller: kind.toLowerCase(), controllerGroup: 'cosmopilot.voluzi.com', controllerKind: kind })
  const lines: LogLine[] = [
    z(at(0.1), 'info', 'setup', 'starting manager'),
    z(at(0.3), 'info', 'controller-runtime.metrics', 'Starting metrics server'),
    z(at(0.3), 'info', undefined, 'starting server', { name: 'health probe', addr: '[::]:8081' }),
    z(at(0.3), 'info', 'controller-runtime.webhook', 'Starting webhook server'),
    z(at(0.4), 'info', 'controller-runtime.webhook', 'Serving webhook server', { host: '', port: 9443 }),
    // No leader election: the controllers start at once.
    z(at(0.5), 'info', undefined, 'Starting EventSource', { ...ctl('ChainNode'), source: 'kind source: *v1.ChainNode' }),
    z(at(0.5), 'info', undefined, 'Starting Controller', ctl('ChainNode')),
    z(at(0.6), 'info', undefined, 'Starting workers', { ...ctl('ChainNode'), 'worker count': 10 }),
  ]
  const conflictAgo = 2 * HOUR
  const conflictId = uuidFrom('solo/conflict')
  lines.push(
    z(ago(now, conflictAgo), 'info', undefined, 'starting reconcile', reconcileFields('ChainNode', NS, 'solo-0', conflictId)),
    reconcilerError(
      ago(now, conflictAgo - 0.2),
      'ChainNode',
      NS,
      'solo-0',
      conflictId,
      'Operation cannot be fulfilled on chainnodes.cosmopilot.voluzi.com "solo-0": the object has been modified; please apply your changes to the latest version and try again',
      'rfc3339',
    ),
  )
  // The node's reconcile period: a full pass every 15 s for the last few minutes the log keeps.
  for (let sec = 10 * MIN, i = 0; sec > 2; sec -= 15, i++) {
    const f = reconcileFields('ChainNode', NS, 'solo-0', uuidFrom(`solo/${i}`))
    lines.push(
      z(ago(now, sec), 'info', undefined, 'starting reconcile', f),
      z(ago(now, sec - 0.01), 'info', undefined, 'pre-checking pod status', { ...f, 'pod-running': true }),
      z(ago(now, sec - 0.4), 'info', undefined, 'finishing reconcile', f),
    )
  }
  return lines.sort((a, b) => a.at.getTime() - b.at.getTime())
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'solo-0',
    symptomRule: null,
    description:
      'Worker release cosmopilot-solo (WORKER_NAME=solo) runs one manager without leader election (no ENABLE_LEADER_ELECTION, no Lease) and logs RFC 3339 times; solo-0 runs, one old reconcile conflict since recovered. Must stay clean.',
  },

  async seed(s) {
    const [rel] = await Promise.all([
      seedRelease(s, {
        release: RELEASE,
        namespace: NS,
        workerName: 'solo',
        replicas: 1,
        leaderElection: false,
        podAgeSeconds: MANAGER_AGE,
        podStatus: (pod) => runningPodStatus(pod, { now: s.now, ageSeconds: MANAGER_AGE, podIP: '10.244.1.159' }),
      }),
      seedRunningNode(s, NODE),
      s.create(serviceAccount(RELEASE, NS)),
    ])
    await s.logs(rel.pods[0].metadata.name, { manager: { current: managerLog(s.now) } })
  },

  async refresh(s) {
    await refreshRunningNode(s, NODE)
  },
})
