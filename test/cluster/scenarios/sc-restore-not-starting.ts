/**
 * sc-restore-not-starting: `restore-0` asks to restore from VolumeSnapshot `missing-snapshot`,
 * which does not exist, onto StorageClass `fixed` (kubernetes.io/no-provisioner: no snapshot
 * data source support). Its data PVC stays Pending with a VolumeSnapshot dataSource; the PVC
 * events say why; the ChainNode never got a phase; there is no Pod.
 */
import { cnEvent } from './lib/events.js'
import { reconcileFields, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode, type NodeOptions } from './lib/node.js'
import { defineScenario } from './lib/scenario.js'
import { MIN, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-restore-not-starting'
const CHAIN = 'cosmoshub-4'
const AGE = 21 * MIN

const NODE: NodeOptions = {
  name: 'restore-0',
  chainID: CHAIN,
  app: GAIA,
  spec: {
    genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN },
    persistence: { size: '200Gi', storageClass: 'fixed', restoreFromSnapshot: { name: 'missing-snapshot' } },
  },
}

const DATA_SOURCE = { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: 'missing-snapshot' }

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'restore-0',
    symptomRule: 'restore-not-starting',
    description:
      'restore-0 restores from VolumeSnapshot missing-snapshot (absent) on StorageClass fixed (no-provisioner): PVC Pending with a VolumeSnapshot dataSource, ProvisioningFailed events, no phase, no Pod.',
  },

  async seed(s) {
    const stack = await seedNode(s, NODE, {
      pvc: { size: '200Gi', storageClass: 'fixed', phase: 'Pending', dataSource: DATA_SOURCE },
      // Never got far enough for a phase or an app version.
      status: { appVersion: undefined },
      pod: false,
    })
    const pvc = stack.pvc!
    await Promise.all([
      cnEvent(s, stack.cn, 'NodeKeyCreated', 'Node key created', { firstAgo: AGE }),
      cnEvent(s, stack.cn, 'GenesisImported', 'Genesis downloaded using specified URL', { firstAgo: AGE - 20 }),
      s.event({
        involved: pvc,
        reason: 'ExternalProvisioning',
        message:
          "Waiting for a volume to be created either by the external provisioner 'kubernetes.io/no-provisioner' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
        count: 84,
        first: ago(s.now, AGE - 25),
        last: ago(s.now, 14),
        component: 'persistentvolume-controller',
      }),
      s.event({
        involved: pvc,
        reason: 'ProvisioningFailed',
        type: 'Warning',
        message:
          'failed to provision volume with StorageClass "fixed": error getting handle for DataSource Type VolumeSnapshot by Name missing-snapshot: error getting snapshot missing-snapshot from api server: volumesnapshots.snapshot.storage.k8s.io "missing-snapshot" not found',
        count: 11,
        first: ago(s.now, AGE - 26),
        last: ago(s.now, 75),
        component: 'persistentvolume-controller',
      }),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    const f = (i: number) => reconcileFields('ChainNode', NS, 'restore-0', uuidFrom(`restore/${i}`))
    lines.push(
      zapJson(ago(now, AGE - 22), 'info', undefined, 'creating data volume from snapshot', {
        ...f(0),
        pvc: 'restore-0',
        snapshot: 'missing-snapshot',
        size: '200Gi',
      }),
    )
    for (let sec = AGE - 40, i = 1; sec > 5; sec -= 60, i++) {
      lines.push(zapJson(ago(now, sec), 'info', undefined, 'waiting for data volume to be bound', { ...f(i), pvc: 'restore-0', phase: 'Pending' }))
    }
    return lines
  },
})
