/**
 * sc-phase-stuck: `init-0` has been in InitializingData for almost three hours. Its data init Pod
 * `init-0-init-data` (pvc.go / chainutils CreateInitPod: init containers `app` then `init-command-0`,
 * a no-op `busybox`, activeDeadlineSeconds = initTimeout 2h) still shows its snapshot download
 * running on a node whose kubelet stopped reporting (the unmanaged node), so neither the deadline nor
 * a failure ever lands. The operator only re-checks the Pod ("init pod still running", not in the
 * log tail it keeps): nothing logged, no Warning Event. Only the time says something is wrong.
 */
import { cnEvent, scheduledEvent } from './lib/events.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { podStatus } from './lib/podstatus.js'
import { defineScenario } from './lib/scenario.js'
import type { KObject } from './lib/api.js'
import { ownerRef } from './lib/api.js'
import { HOUR, MIN, ago } from './lib/util.js'

const NS = 'sc-phase-stuck'
const NAME = 'init-0'
const CHAIN = 'cosmoshub-4'
const AGE = 2 * HOUR + 52 * MIN
const INIT_STARTED = AGE - 20
const SNAPSHOT_URL = 'https://snapshots.example.org/cosmoshub-4/cosmoshub-4_27481102.tar.lz4'
const INIT_COMMAND = {
  image: 'ghcr.io/voluzi/node-tools:1.4.3',
  command: ['sh', '-c'],
  args: [`wget -qO- ${SNAPSHOT_URL} | lz4 -dc - | tar -xf - -C /home/app/data`],
}

const NODE: NodeOptions = {
  name: NAME,
  chainID: CHAIN,
  app: GAIA,
  spec: {
    genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN },
    persistence: { size: '1Ti', storageClass: 'expandable', initTimeout: '2h', additionalInitCommands: [INIT_COMMAND] },
  },
}

function initPod(cn: KObject, node: string): KObject {
  const restricted = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } }
  const mounts = [
    { name: 'home', mountPath: '/home/app' },
    { name: 'data', mountPath: '/home/app/data' },
  ]
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: `${NAME}-init-data`, namespace: NS, labels: { 'chainnode.test/manual-status': 'true' }, ownerReferences: [ownerRef(cn)] },
    spec: {
      nodeName: node,
      restartPolicy: 'Never',
      priorityClassName: 'cosmopilot-default',
      activeDeadlineSeconds: 7200,
      terminationGracePeriodSeconds: 0,
      securityContext: { runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: NAME } },
        { name: 'home', emptyDir: {} },
        { name: 'temp', emptyDir: {} },
      ],
      initContainers: [
        {
          name: 'app',
          image: `${GAIA.image}:${GAIA.version}`,
          command: [GAIA.app],
          args: ['init', NAME, '--home', '/home/app'],
          volumeMounts: mounts,
          securityContext: restricted,
        },
        { name: 'init-command-0', ...INIT_COMMAND, volumeMounts: [...mounts, { name: 'temp', mountPath: '/temp' }], securityContext: restricted },
      ],
      containers: [{ name: 'busybox', image: 'busybox', command: ['echo'], securityContext: restricted }],
    },
  }
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: NAME,
    symptomRule: 'phase-stuck',
    description:
      'init-0 has held InitializingData for ~2h50m (initTimeout 2h): init-0-init-data still shows init-command-0 downloading; nothing in the operator log, no Warning Event.',
  },

  async seed(s) {
    const stack = await seedNode(s, NODE, {
      pvc: { size: '1Ti', storageClass: 'expandable' },
      status: { phase: 'InitializingData', pvcSize: '1Ti', chainID: undefined, appVersion: undefined, ip: undefined },
      services: false,
      configMaps: false,
      pod: false,
    })
    const created = await s.create(initPod(stack.cn, s.ctx.unmanagedNode))
    const started = ago(s.now, INIT_STARTED)
    await Promise.all([
      s.api.patch(stack.pvc!, { metadata: { annotations: { 'cosmopilot.voluzi.com/data-initialized': 'false', 'cosmopilot.voluzi.com/data-height': '0' } } }),
      s.status(
        created,
        podStatus({
          phase: 'Pending',
          podUid: created.metadata.uid ?? '',
          startTime: started,
          podIP: '10.244.1.77',
          init: [
            {
              name: 'app',
              image: `${GAIA.image}:${GAIA.version}`,
              state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: ago(s.now, INIT_STARTED - 6), finishedAt: ago(s.now, INIT_STARTED - 8) } },
            },
            { name: 'init-command-0', image: INIT_COMMAND.image, state: { running: { startedAt: ago(s.now, INIT_STARTED - 10) } } },
          ],
          containers: [{ name: 'busybox', image: 'busybox', state: { waiting: { reason: 'PodInitializing' } } }],
          initialized: false,
          ready: false,
          qosClass: 'BestEffort',
        }),
      ),
      cnEvent(s, stack.cn, 'NodeKeyCreated', 'Node key created', { firstAgo: AGE }),
      cnEvent(s, stack.cn, 'DataInitStarted', 'Data initialization started', { firstAgo: INIT_STARTED }),
      scheduledEvent(s, created, INIT_STARTED + 1),
      s.event({
        involved: created,
        reason: 'Pulled',
        message: `Successfully pulled image "${INIT_COMMAND.image}" in 2.113s (2.113s including waiting). Image size: 48213312 bytes.`,
        first: ago(s.now, INIT_STARTED - 9),
        last: ago(s.now, INIT_STARTED - 9),
        component: 'kubelet',
        host: s.ctx.unmanagedNode,
        fieldPath: 'spec.initContainers{init-command-0}',
      }),
    ])
  },
})
