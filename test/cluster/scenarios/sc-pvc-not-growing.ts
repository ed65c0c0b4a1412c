/**
 * sc-pvc-not-growing: auto-resize raised `grow-0`'s data PVC request from 100Gi to 150Gi, but
 * StorageClass `fixed` has no allowVolumeExpansion (and no provisioner/resizer): capacity stays
 * 100Gi while status.pvcSize says 150Gi and usage is 92%. `PvcResized` was emitted; nothing on the
 * PVC side acts on it (no resize events).
 */
import { cnEvent } from './lib/events.js'
import { reconcileFields, zapJson } from './lib/logfmt.js'
import { NIBIRU } from './lib/node.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-pvc-not-growing'
const RESIZED_AGO = 5 * HOUR + 12 * 60

const NODE: RunningNode = {
  opts: {
    name: 'grow-0',
    chainID: 'nibiru-testnet-2',
    app: NIBIRU,
    spec: {
      genesis: { url: 'https://networks.testnet.nibiru.fi/genesis', chainID: 'nibiru-testnet-2' },
      persistence: {
        size: '100Gi',
        storageClass: 'fixed',
        autoResize: true,
        autoResizeThreshold: 80,
        autoResizeIncrement: '50Gi',
        autoResizeMaxSize: '1Ti',
      },
    },
  },
  age: 6 * DAY,
  podIP: '10.244.1.90',
  size: '150Gi',
  usage: '92%',
  stack: {
    pvc: { size: '150Gi', capacity: '100Gi', storageClass: 'fixed' },
  },
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'grow-0',
    symptomRule: 'pvc-not-growing',
    description:
      'grow-0: PVC request raised to 150Gi (PvcResized event) but StorageClass fixed has no allowVolumeExpansion: capacity stays 100Gi, status.pvcSize 150Gi, dataUsage 92%.',
  },

  async seed(s) {
    const stack = await seedRunningNode(s, NODE)
    await Promise.all([cnEvent(s, stack.cn, 'PvcResized', 'Data volume was resized to 150Gi', { firstAgo: RESIZED_AGO })])
  },

  operatorLogs(now) {
    const f = reconcileFields('ChainNode', NS, 'grow-0', uuidFrom('grow/0'))
    return [
      zapJson(ago(now, RESIZED_AGO + 1), 'info', undefined, 'increasing pvc size', {
        ...f,
        pvc: 'grow-0',
        usage: '81%',
        threshold: 80,
        'old-size': '100Gi',
        'new-size': '150Gi',
      }),
      zapJson(ago(now, RESIZED_AGO), 'info', undefined, 'updating pvc', { ...f, pvc: 'grow-0', size: '150Gi' }),
    ]
  },

  async refresh(s) {
    await refreshRunningNode(s, NODE)
  },
})
