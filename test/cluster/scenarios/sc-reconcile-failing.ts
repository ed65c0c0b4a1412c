/**
 * sc-reconcile-failing: `quota-0` cannot get past InitializingData. The operator creates its data PVC,
 * sets the phase and tries to create `quota-0-init-data`, which the namespace's ResourceQuota refuses.
 * cosmopilot returns the error from Reconcile (pvc.go: "failed to create init pod: …") and records no
 * Event; controller-runtime logs `Reconciler error` and retries with its backoff (5 ms doubling to
 * 1000 s). The shared manager's log is the only place that says why: no Warning Event, no Pod.
 */
import { cnEvent } from './lib/events.js'
import { reconcileFields, reconcilerError, retryTimes, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { defineScenario } from './lib/scenario.js'
import { MIN, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-reconcile-failing'
const NAME = 'quota-0'
const CHAIN = 'cosmoshub-4'
const AGE = 40 * MIN
const QUOTA = 'compute-resources'
export const QUOTA_ERROR = `failed to create init pod: pods "${NAME}-init-data" is forbidden: exceeded quota: ${QUOTA}, requested: requests.cpu=4, used: requests.cpu=6, limited: requests.cpu=8`

const NODE: NodeOptions = {
  name: NAME,
  chainID: CHAIN,
  app: GAIA,
  spec: {
    genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN },
    persistence: { size: '500Gi', storageClass: 'expandable' },
    resources: { requests: { cpu: '4', memory: '16Gi' }, limits: { memory: '24Gi' } },
  },
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: NAME,
    symptomRule: 'reconcile-failing',
    description:
      'quota-0 stays in InitializingData: every reconcile fails creating quota-0-init-data (exceeded quota compute-resources); the operator only logs Reconciler error, no Warning Event, no Pod.',
  },

  async seed(s) {
    const stack = await seedNode(s, NODE, {
      pvc: { size: '500Gi', storageClass: 'expandable', phase: 'Pending' },
      // Genesis, services and configs come after the data volume is initialised.
      status: { phase: 'InitializingData', pvcSize: '500Gi', chainID: undefined, appVersion: undefined, ip: undefined },
      services: false,
      configMaps: false,
      pod: false,
    })
    await Promise.all([
      s.api.patch(stack.pvc!, { metadata: { annotations: { 'cosmopilot.voluzi.com/data-initialized': 'false', 'cosmopilot.voluzi.com/data-height': '0' } } }),
      s
        .create({
          apiVersion: 'v1',
          kind: 'ResourceQuota',
          metadata: { name: QUOTA, namespace: NS },
          spec: { hard: { 'requests.cpu': '8', 'requests.memory': '64Gi', pods: '20' } },
        })
        .then((quota) =>
          s.status(quota, {
            hard: { 'requests.cpu': '8', 'requests.memory': '64Gi', pods: '20' },
            used: { 'requests.cpu': '6', 'requests.memory': '24Gi', pods: '3' },
          }),
        ),
      cnEvent(s, stack.cn, 'NodeKeyCreated', 'Node key created', { firstAgo: AGE }),
      s.event({
        involved: stack.pvc!,
        reason: 'WaitForFirstConsumer',
        message: 'waiting for first consumer to be created before binding',
        count: 161,
        first: ago(s.now, AGE - 1),
        last: ago(s.now, 12),
        component: 'persistentvolume-controller',
      }),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    retryTimes(AGE - 1).forEach((sec, i) => {
      const id = uuidFrom(`quota/${i}`)
      const f = reconcileFields('ChainNode', NS, NAME, id)
      const at = (d: number) => ago(now, sec - d)
      lines.push(
        zapJson(at(0), 'info', undefined, 'starting reconcile', f),
        zapJson(at(0.004), 'info', undefined, 'pre-checking pod status', { ...f, 'pod-running': false }),
      )
      if (i === 0) lines.push(zapJson(at(0.01), 'info', undefined, 'creating pvc', { ...f, pvc: NAME, size: '500Gi' }))
      lines.push(zapJson(at(0.02), 'info', undefined, 'creating init pod', { ...f, pvc: NAME }))
      if (i === 0) lines.push(zapJson(at(0.021), 'info', undefined, 'updating .status.phase', { ...f, phase: 'InitializingData' }))
      lines.push(reconcilerError(at(0.03), 'ChainNode', NS, NAME, id, QUOTA_ERROR))
    })
    return lines
  },
})
