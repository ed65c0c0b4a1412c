/**
 * sc-image-pull: `pull-0`'s version was bumped to a tag that does not exist. The recreated pod
 * sits Pending on the unmanaged node: node-utils runs, container `app` waits in
 * ImagePullBackOff; kubelet Pulling / Failed (not found, ErrImagePull) / BackOff (x12) events;
 * no imagePullSecrets anywhere.
 */
import { cnEvent, kubeletEvent, scheduledEvent } from './lib/events.js'
import { reconcileFields, zapJson } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { chainHeight, nodeUtilsLogs } from './lib/nodelogs.js'
import { podStatus } from './lib/podstatus.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-image-pull'
const CHAIN = 'cosmoshub-4'
const BAD = 'v99.0.0'
const IMAGE = `${GAIA.image}:${BAD}`
/** The pod was recreated with the bad tag this long ago. */
const POD_AGE = 19 * 60

const NODE: NodeOptions = {
  name: 'pull-0',
  chainID: CHAIN,
  app: GAIA,
  spec: {
    genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN },
    persistence: { size: '500Gi', storageClass: 'expandable' },
  },
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'pull-0',
    symptomRule: 'image-pull',
    description: `pull-0 recreated with image ${IMAGE} (tag does not exist): pod Pending, container app ImagePullBackOff, kubelet Failed/ErrImagePull/BackOff (x12) events, no imagePullSecrets.`,
  },

  async seed(s) {
    const frozen = chainHeight(CHAIN, ago(s.now, POD_AGE + 40))
    const stack = await seedNode(s, NODE, {
      specUpdate: { app: { version: BAD } },
      pvc: { size: '500Gi', storageClass: 'expandable', dataHeight: frozen },
      status: { phase: 'Restarting', latestHeight: frozen, appVersion: 'v25.2.0', dataUsage: '71%', pvcSize: '500Gi' },
      pod: {
        node: 'unmanaged',
        version: BAD,
        status: (pod) =>
          podStatus({
            phase: 'Pending',
            podUid: pod.metadata.uid ?? '',
            startTime: ago(s.now, POD_AGE),
            podIP: '10.244.1.60',
            init: [
              {
                name: 'node-utils',
                image: 'ghcr.io/voluzi/node-utils:4.1.0',
                ready: true,
                state: { running: { startedAt: ago(s.now, POD_AGE - 2) } },
              },
            ],
            containers: [
              {
                name: 'app',
                image: IMAGE,
                ready: false,
                state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } },
              },
            ],
            initialized: true,
            ready: false,
          }),
      },
    })
    const pod = stack.pod!
    const notFound = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`
    const app = { container: 'app' }
    await Promise.all([
      scheduledEvent(s, pod, POD_AGE + 1),
      kubeletEvent(s, pod, 'Pulled', 'Container image "ghcr.io/voluzi/node-utils:4.1.0" already present on machine', {
        container: 'node-utils',
        init: true,
        firstAgo: POD_AGE - 1,
      }),
      kubeletEvent(s, pod, 'Created', 'Created container: node-utils', { container: 'node-utils', init: true, firstAgo: POD_AGE - 1 }),
      kubeletEvent(s, pod, 'Started', 'Started container node-utils', { container: 'node-utils', init: true, firstAgo: POD_AGE - 1 }),
      kubeletEvent(s, pod, 'Pulling', `Pulling image "${IMAGE}"`, { ...app, count: 7, firstAgo: POD_AGE - 3, lastAgo: 95 }),
      kubeletEvent(s, pod, 'Failed', notFound, { ...app, type: 'Warning', count: 7, firstAgo: POD_AGE - 4, lastAgo: 94 }),
      kubeletEvent(s, pod, 'Failed', 'Error: ErrImagePull', { ...app, type: 'Warning', count: 7, firstAgo: POD_AGE - 4, lastAgo: 94 }),
      kubeletEvent(s, pod, 'BackOff', `Back-off pulling image "${IMAGE}"`, {
        ...app,
        count: 12,
        firstAgo: POD_AGE - 5,
        lastAgo: 11,
      }),
      kubeletEvent(s, pod, 'Failed', 'Error: ImagePullBackOff', { ...app, type: 'Warning', count: 12, firstAgo: POD_AGE - 5, lastAgo: 11 }),
      cnEvent(s, stack.cn, 'NodeStarted', 'Node successfully started', { firstAgo: 40 * DAY }),
      cnEvent(s, stack.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: 40 * DAY - 7200 }),
      s.logs(pod.metadata.name, {
        'node-utils': {
          current: nodeUtilsLogs({ now: s.now, startedAgo: POD_AGE - 2, chainID: CHAIN, profiling: 'on', frozenHeight: 0, window: 120 }).filter(
            (l) => !/node is ready|node is healthy|got syncing status|retrieved latest height/.test(l.text),
          ),
        },
      }),
    ])
  },

  operatorLogs(now) {
    const f = (i: number) => reconcileFields('ChainNode', NS, 'pull-0', uuidFrom(`pull/${i}`))
    return [
      zapJson(ago(now, POD_AGE + 3), 'info', undefined, 'pod spec changed', { ...f(0), pod: 'pull-0' }),
      zapJson(ago(now, POD_AGE + 3), 'info', undefined, 'recreating pod', { ...f(0), pod: 'pull-0', reason: 'pod spec changed' }),
      zapJson(ago(now, POD_AGE), 'info', undefined, 'creating pod', { ...f(1), pod: 'pull-0', image: IMAGE }),
    ]
  },
})
