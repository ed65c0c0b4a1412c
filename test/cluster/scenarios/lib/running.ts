/** A node that runs normally: the building block of healthy and "mostly healthy" scenarios. */
import { cnEvent, podStartEvents } from './events.js'
import type { LogLine } from './logfmt.js'
import { GAIA, mainContainerName, seedNode, type NodeOptions, type NodeStack, type StackOptions } from './node.js'
import { chainHeight, cometLogs, nodeUtilsLogs } from './nodelogs.js'
import { runningPodStatus } from './podstatus.js'
import type { Seeder } from './seeder.js'
import { nodeId } from './util.js'

export interface RunningNode {
  opts: NodeOptions
  /** Seconds since the pod started. */
  age: number
  podIP: string
  size?: string
  usage?: string
  /** 6666 behaviour: 'on' forwards to the pprof target, 'taken' to ctx.pprofTakenPort, 'absent' no rule. */
  profiling?: 'on' | 'taken' | 'absent'
  stack?: StackOptions
  /** Standard lifecycle events (NodeStarted/NodeSyncing/NodeRunning, kubelet start events). */
  events?: boolean
  nodeUtilsExtra?: LogLine[]
  appExtra?: LogLine[]
  /** First lifecycle event reason: NodeStarted (first creation) or NodeRestarted (recreated). */
  startReason?: 'NodeStarted' | 'NodeRestarted'
}

export function runningLogs(now: Date, ns: string, n: RunningNode, age = n.age) {
  const o = n.opts
  const app = o.app ?? GAIA
  const useDataVolume = !!(o.spec?.genesis as { useDataVolume?: boolean } | undefined)?.useDataVolume
  return {
    ...(useDataVolume ? { 'link-genesis': { current: [] } } : {}),
    'node-utils': {
      current: nodeUtilsLogs({
        now,
        startedAgo: age - 3,
        chainID: o.chainID,
        profiling: n.profiling ?? 'on',
        extra: n.nodeUtilsExtra,
        blockThreshold: (o.spec?.config as { blockThreshold?: string } | undefined)?.blockThreshold,
      }),
    },
    [mainContainerName(o)]: {
      current: cometLogs({
        now,
        startedAgo: age - 4,
        chainID: o.chainID,
        nodeID: nodeId(`${ns}/${o.name}`),
        version: app.version,
        moniker: o.name,
        extra: n.appExtra,
      }),
    },
  }
}

/** Forward target for pod port 6666: the pprof target, or the "taken" port (something else answers). */
export async function profilingForward(s: Seeder, pod: string, mode: RunningNode['profiling']): Promise<void> {
  if (mode === 'absent') return
  if (mode === 'taken') {
    await s.forward(pod, 6666, s.ctx.pprofTakenPort ?? (await closedPort()))
    return
  }
  await s.forward(pod, 6666, s.ctx.pprofPort)
}

/** A localhost port nothing listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const net = await import('node:net')
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port
      srv.close(() => resolve(port))
    })
  })
}

export async function seedRunningNode(s: Seeder, n: RunningNode): Promise<NodeStack> {
  const h = chainHeight(n.opts.chainID, s.now)
  const size = n.size ?? '100Gi'
  const seeds = ((n.opts.spec?.peers as { id: string; address: string; port: number; seed?: boolean }[] | undefined) ?? [])
    .filter((p) => p.seed)
    .map((p) => `${p.id}@${p.address}:${p.port}`)
    .join(',')
  const peers = ((n.opts.spec?.peers as { id: string; address: string; port: number; seed?: boolean }[] | undefined) ?? [])
    .filter((p) => !p.seed)
    .map((p) => `${p.id}@${p.address}:${p.port}`)
    .join(',')
  const stack = await seedNode(s, n.opts, {
    ...n.stack,
    config: { seeds, persistentPeers: peers, ...n.stack?.config },
    pvc: n.stack?.pvc ?? { size, storageClass: 'expandable', dataHeight: h - 40 },
    status: {
      phase: 'Running',
      latestHeight: h - 1,
      dataUsage: n.usage ?? '38%',
      pvcSize: size,
      ...n.stack?.status,
    },
    pod: {
      node: 'kwok',
      status: (pod) => runningPodStatus(pod, { now: s.now, ageSeconds: n.age, podIP: n.podIP }),
      ...(n.stack?.pod || {}),
    },
  })
  const pod = stack.pod!
  const work: Promise<unknown>[] = [s.logs(pod.metadata.name, runningLogs(s.now, s.ns, n)), profilingForward(s, pod.metadata.name, n.profiling ?? 'on')]
  if (n.events !== false) {
    work.push(
      podStartEvents(s, pod, n.age),
      cnEvent(s, stack.cn, n.startReason ?? 'NodeStarted', n.startReason === 'NodeRestarted' ? 'Node restarted' : 'Node successfully started', {
        firstAgo: n.age - 30,
      }),
      cnEvent(s, stack.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: Math.max(5, n.age - 20 * 60) }),
    )
    if (n.startReason !== 'NodeRestarted') {
      work.push(cnEvent(s, stack.cn, 'NodeSyncing', 'Node is syncing', { firstAgo: n.age - 31 }))
    }
  }
  await Promise.all(work)
  return stack
}

/** Re-stamp a running node: latestHeight and logs ending now (pod age read from the pod). */
export async function refreshRunningNode(s: Seeder, n: RunningNode): Promise<void> {
  const now = new Date()
  const o = n.opts
  const cn = await s.api.tryGet('cosmopilot.voluzi.com/v1', 'ChainNode', s.ns, o.name)
  if (cn) {
    const validator = (cn.status as { validator?: boolean } | undefined)?.validator ?? false
    await s.status(cn, { latestHeight: chainHeight(o.chainID, now) - 1, validator })
  }
  const pod = await s.api.tryGet('v1', 'Pod', s.ns, o.name)
  const start = (pod?.status as { startTime?: string } | undefined)?.startTime
  if (!pod || !start) return
  const age = Math.round((now.getTime() - Date.parse(start)) / 1000)
  await s.logs(o.name, runningLogs(now, s.ns, n, age))
}
