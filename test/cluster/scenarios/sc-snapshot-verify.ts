/**
 * sc-snapshot-verify: `snap-0` takes VolumeSnapshots every 6h with `verify: true`, but the
 * integrity-check pod has too little memory: the restored node is OOMKilled, the check fails,
 * the snapshot is marked corrupted and deleted, a new one is started, and so on. Present: three
 * VolumeSnapshots (ok / corrupted / checking), the check Job `<snap>-ichk` with a failed pod
 * `<snap>-ichk-<suffix>` (binary OOMKilled, start-checker timed out), its restored PVC, and the
 * repeated SnapshotStarted / IntegrityCheckStart / SnapshotDeleted events.
 */
import { ownerRef, type KObject } from './lib/api.js'
import { cnEvent, kubeletEvent, scheduledEvent } from './lib/events.js'
import { reconcileFields, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, bindPvc, type NodeOptions } from './lib/node.js'
import { chainHeight, cometStartup } from './lib/nodelogs.js'
import { podStatus } from './lib/podstatus.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import type { Seeder } from './lib/seeder.js'
import { DAY, HOUR, MIN, ago, k8sSuffix, nodeId, rfc3339, snapshotStamp, uuidFrom } from './lib/util.js'

const NS = 'sc-snapshot-verify'
const CHAIN = 'cosmoshub-4'
const SNAP_CLASS = 'csi-gce-pd-snapclass'

const NODE_OPTS: NodeOptions = {
  name: 'snap-0',
  chainID: CHAIN,
  app: GAIA,
  labels: { 'app.kubernetes.io/part-of': 'cosmoshub-archive' },
  spec: {
    genesis: { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN },
    persistence: {
      size: '300Gi',
      storageClass: 'expandable',
      snapshots: {
        frequency: '6h',
        retain: 3,
        verify: true,
        snapshotClass: SNAP_CLASS,
        resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '1', memory: '512Mi' } },
      },
    },
  },
}

const NODE: RunningNode = { opts: NODE_OPTS, age: 4 * DAY, podIP: '10.244.1.80', size: '300Gi', usage: '64%' }

/** Snapshot ages (seconds) and what became of them. */
const PRESENT = [
  { age: 13 * HOUR + 4 * MIN, integrity: 'ok' },
  { age: 52 * MIN, integrity: 'corrupted' },
  { age: 9 * MIN, integrity: 'checking' },
]
const DELETED = [7 * HOUR + 2 * MIN, 5 * HOUR + 41 * MIN, 4 * HOUR + 12 * MIN, 2 * HOUR + 37 * MIN, HOUR + 49 * MIN]

function snapName(now: Date, age: number): string {
  return `snap-0-${snapshotStamp(ago(now, age))}`
}

function volumeSnapshot(s: Seeder, cn: KObject, age: number, integrity: string): KObject {
  const name = snapName(s.now, age)
  return {
    apiVersion: 'snapshot.storage.k8s.io/v1',
    kind: 'VolumeSnapshot',
    metadata: {
      name,
      namespace: NS,
      labels: { 'app.kubernetes.io/part-of': 'cosmoshub-archive', 'chain-node': 'snap-0' },
      annotations: {
        'cosmopilot.voluzi.com/snapshot-ready': 'true',
        'cosmopilot.voluzi.com/data-height': String(chainHeight(CHAIN, ago(s.now, age))),
        'cosmopilot.voluzi.com/snapshot-integrity-status': integrity,
      },
      ownerReferences: [ownerRef(cn)],
      finalizers: ['snapshot.storage.kubernetes.io/volumesnapshot-as-source-protection'],
    },
    spec: { source: { persistentVolumeClaimName: 'snap-0' }, volumeSnapshotClassName: SNAP_CLASS },
  }
}

function checkPodSpec(snap: string, nodeName: string | undefined): Record<string, unknown> {
  const mounts = [
    { name: 'data', mountPath: '/home/app/data' },
    { name: 'config', mountPath: '/home/app/config' },
  ]
  return {
    ...(nodeName ? { nodeName } : {}),
    restartPolicy: 'Never',
    priorityClassName: 'cosmopilot-default',
    securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 },
    initContainers: [
      {
        name: 'init-config',
        image: 'busybox',
        command: ['sh', '-c'],
        args: ['cp /config-src/* /home/app/config/'],
        volumeMounts: [...mounts, { name: 'config-src', mountPath: '/config-src' }],
      },
      {
        name: 'gaiad',
        image: `${GAIA.image}:${GAIA.version}`,
        restartPolicy: 'Always',
        command: ['gaiad'],
        args: ['start', '--home', '/home/app', '--grpc-only'],
        resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { cpu: '1', memory: '512Mi' } },
        volumeMounts: mounts,
      },
    ],
    containers: [
      {
        name: 'start-checker',
        image: 'busybox',
        command: ['sh', '-c'],
        args: [
          'for i in $(seq 1 180); do if nc -z 127.0.0.1 9090; then echo "gRPC port is open"; exit 0; fi; echo "waiting for 127.0.0.1:9090 ($i/180)"; sleep 5; done; echo "node did not open gRPC port in time"; exit 1',
        ],
      },
    ],
    volumes: [
      { name: 'data', persistentVolumeClaim: { claimName: `${snap}-ichk` } },
      { name: 'config', emptyDir: {} },
      { name: 'config-src', configMap: { name: 'snap-0', defaultMode: 420 } },
    ],
  }
}

async function seedCheck(s: Seeder, vs: KObject, age: number): Promise<void> {
  const snap = vs.metadata.name
  const jobName = `${snap}-ichk`
  const labels = { 'volume-snapshot': snap }
  const [job, pvc] = await Promise.all([
    s.create<KObject>({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: jobName, namespace: NS, labels, ownerReferences: [ownerRef(vs)] },
      spec: {
        backoffLimit: 1,
        ttlSecondsAfterFinished: 60,
        template: { metadata: { labels }, spec: checkPodSpec(snap, undefined) },
      },
    }),
    s.create<KObject>({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: `${snap}-ichk`, namespace: NS, labels, ownerReferences: [ownerRef(vs)] },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: '300Gi' } },
        storageClassName: 'expandable',
        dataSource: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: snap },
        dataSourceRef: { apiGroup: 'snapshot.storage.k8s.io', kind: 'VolumeSnapshot', name: snap },
      },
    }),
  ])
  const jobLabels = (job.spec as { template: { metadata: { labels: Record<string, string> } } }).template.metadata.labels
  const podName = `${jobName}-${k8sSuffix(`${NS}/${jobName}/0`)}`
  const start = ago(s.now, age - 40)
  let pod = await s.create<KObject>({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName,
      namespace: NS,
      labels: { ...jobLabels, 'chainnode.test/manual-status': 'true' },
      ownerReferences: [ownerRef(job)],
    },
    spec: checkPodSpec(snap, s.ctx.unmanagedNode),
  })
  const oom = (a: number, b: number) => ({ terminated: { exitCode: 137, reason: 'OOMKilled', startedAt: ago(s.now, a), finishedAt: ago(s.now, b) } }) as const
  const end = ago(s.now, 95)
  pod = await s.status(
    pod,
    podStatus({
      phase: 'Failed',
      podUid: pod.metadata.uid ?? '',
      startTime: start,
      podIP: '10.244.1.81',
      init: [
        {
          name: 'init-config',
          image: 'busybox',
          state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: start, finishedAt: ago(s.now, age - 42) } },
        },
        {
          name: 'gaiad',
          image: `${GAIA.image}:${GAIA.version}`,
          restartCount: 4,
          state: oom(150, 96),
          lastState: oom(260, 205),
        },
      ],
      containers: [
        {
          name: 'start-checker',
          image: 'busybox',
          state: { terminated: { exitCode: 1, reason: 'Error', startedAt: ago(s.now, age - 44), finishedAt: end } },
        },
      ],
      initialized: true,
      ready: false,
      transitionAt: end,
    }),
  )
  const jobStart = rfc3339(start)
  const checkerLog: LogLine[] = []
  for (let sec = age - 44, i = 1; sec > 96; sec -= 5, i++) {
    checkerLog.push({ at: ago(s.now, sec), text: `waiting for 127.0.0.1:9090 (${i}/180)` })
  }
  checkerLog.push({ at: end, text: 'node did not open gRPC port in time' })
  const h = chainHeight(CHAIN, ago(s.now, age))
  const binLog = (startedAgo: number) =>
    cometStartup(
      { now: s.now, startedAgo, chainID: CHAIN, nodeID: nodeId(`${NS}/${podName}`), version: GAIA.version, moniker: podName, startupOnly: true },
      h,
    ).slice(0, 8)
  await Promise.all([
    s.status(job, { startTime: jobStart, active: 0, failed: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} }).catch(() => undefined),
    bindPvc(s, pvc, { size: '300Gi', storageClass: 'expandable' }),
    s.event({
      involved: job,
      reason: 'SuccessfulCreate',
      message: `Created pod: ${podName}`,
      first: start,
      component: 'job-controller',
    }),
    scheduledEvent(s, pod, age - 39),
    kubeletEvent(s, pod, 'Started', 'Started container init-config', { container: 'init-config', init: true, firstAgo: age - 41 }),
    kubeletEvent(s, pod, 'Started', 'Started container gaiad', { container: 'gaiad', init: true, firstAgo: age - 43, lastAgo: 150, count: 5 }),
    kubeletEvent(s, pod, 'Started', 'Started container start-checker', { container: 'start-checker', firstAgo: age - 44 }),
    kubeletEvent(s, pod, 'BackOff', `Back-off restarting failed container gaiad in pod ${podName}_${NS}(${pod.metadata.uid})`, {
      container: 'gaiad',
      init: true,
      type: 'Warning',
      count: 4,
      firstAgo: age - 160,
      lastAgo: 152,
    }),
    s.logs(podName, {
      'start-checker': { current: checkerLog },
      gaiad: { current: binLog(150), previous: binLog(260) },
      'init-config': { current: [] },
    }),
  ])
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'snap-0',
    symptomRule: 'snapshot-verify-failing',
    description:
      'snap-0: snapshots {frequency 6h, verify true}; integrity checks keep failing (check pod binary OOMKilled under a 512Mi limit), snapshots marked corrupted and deleted, repeated SnapshotStarted/IntegrityCheckStart/SnapshotDeleted events.',
  },

  async seed(s) {
    const newest = PRESENT[PRESENT.length - 1]
    const stack = await seedRunningNode(s, {
      ...NODE,
      opts: {
        ...NODE_OPTS,
        annotations: {
          'cosmopilot.voluzi.com/snapshotting-pvc': 'false',
          'cosmopilot.voluzi.com/last-pvc-snapshot': snapshotStamp(ago(s.now, newest.age)),
        },
      },
    })
    const cn = stack.cn
    const snaps = await Promise.all(PRESENT.map((p) => s.create(volumeSnapshot(s, cn, p.age, p.integrity))))
    const events: Promise<unknown>[] = []
    const cycle = (age: number, fate: 'deleted' | 'corrupted' | 'checking' | 'ok') => {
      const name = snapName(s.now, age)
      events.push(
        cnEvent(s, cn, 'SnapshotStarted', `Started PVC snapshot ${name}`, { firstAgo: age }),
        cnEvent(s, cn, 'SnapshotFinished', `Finished PVC snapshot ${name}`, { firstAgo: age - 3 * MIN }),
        cnEvent(s, cn, 'IntegrityCheckStart', `Starting snapshot ${name} integrity check`, { firstAgo: age - 3 * MIN - 10 }),
      )
      if (fate === 'deleted') {
        events.push(
          cnEvent(s, cn, 'SnapshotDeleted', `Deleted PVC snapshot ${name} (exceeded retain count of 3)`, {
            firstAgo: age - 31 * MIN,
          }),
        )
      }
    }
    cycle(PRESENT[0].age, 'ok')
    for (const a of DELETED) cycle(a, 'deleted')
    cycle(PRESENT[1].age, 'corrupted')
    cycle(PRESENT[2].age, 'checking')
    await Promise.all([
      ...events,
      ...snaps.map((vs, i) =>
        s.status(vs, {
          boundVolumeSnapshotContentName: `snapcontent-${vs.metadata.uid}`,
          creationTime: rfc3339(ago(s.now, PRESENT[i].age)),
          readyToUse: true,
          restoreSize: '300Gi',
        }),
      ),
      seedCheck(s, snaps[2], PRESENT[2].age - 3 * MIN - 10),
    ])
  },

  operatorLogs(now) {
    const f = (i: number) => reconcileFields('ChainNode', NS, 'snap-0', uuidFrom(`snap/${i}`))
    const lines: LogLine[] = []
    const all = [...DELETED, PRESENT[1].age, PRESENT[2].age].sort((a, b) => b - a)
    all.forEach((age, i) => {
      const name = snapName(now, age)
      lines.push(
        zapJson(ago(now, age), 'info', undefined, 'creating pvc snapshot', { ...f(i), snapshot: name }),
        zapJson(ago(now, age - 3 * MIN - 10), 'info', undefined, 'starting snapshot integrity check', { ...f(i), snapshot: name }),
      )
      // The operator's message for a failed check; it then deletes the snapshot with no Event saying why.
      if (age !== PRESENT[2].age) {
        lines.push(
          zapJson(ago(now, age - 30 * MIN), 'info', undefined, 'data integrity check finished. Data is corrupted.', {
            ...f(i),
            snapshot: name,
            job: `${name}-ichk`,
          }),
        )
      }
    })
    return lines
  },

  async refresh(s) {
    await refreshRunningNode(s, NODE)
  },
})
