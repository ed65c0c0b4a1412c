/**
 * sc-config-change-restart: `cfg-0` was recreated minutes ago because its rendered config
 * changed (pod and ConfigMap config-hash equal, new value; young pod with a new UID; kubelet
 * `Killing` events still reference the old pod UID; `NodeRestarted`; operator log `config
 * changed` / `recreating pod`). `cfg-1` got the same change but its restart is deferred by the
 * disruption check: ConfigMap hash differs from the pod's, pod chainnode-generation lags.
 */
import type { KObject } from './lib/api.js'
import { cnEvent, kubeletEvent, podStartEvents } from './lib/events.js'
import { reconcileFields, zapJson, type LogLine } from './lib/logfmt.js'
import { NIBIRU, renderConfig, type NodeOptions } from './lib/node.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-config-change-restart'
const CHAIN = 'nibiru-testnet-2'
const OLD_GAS = '0.025unibi'
const NEW_GAS = '0.05unibi'
/** cfg-0 was recreated this many seconds before seeding. */
const RESTART_AGO = 235

function opts(name: string): NodeOptions {
  return {
    name,
    chainID: CHAIN,
    app: NIBIRU,
    labels: { tier: 'sentry' },
    spec: {
      genesis: { url: 'https://networks.testnet.nibiru.fi/genesis', chainID: CHAIN },
      persistence: { size: '300Gi', storageClass: 'expandable' },
      config: { override: { 'app.toml': { 'minimum-gas-prices': OLD_GAS } } },
    },
  }
}

const specUpdate = { config: { override: { 'app.toml': { 'minimum-gas-prices': NEW_GAS } } } }
const hashFor = (o: NodeOptions, gas: string) => renderConfig(o, { appConfig: { minimumGasPrices: gas } }).hash

const CFG0: RunningNode = {
  opts: opts('cfg-0'),
  age: RESTART_AGO - 5,
  podIP: '10.244.1.40',
  size: '300Gi',
  usage: '47%',
  startReason: 'NodeRestarted',
  events: false,
  stack: { appConfig: { minimumGasPrices: NEW_GAS }, specUpdate },
}

const CFG1: RunningNode = {
  opts: opts('cfg-1'),
  age: 5 * DAY + 3 * HOUR,
  podIP: '10.244.1.41',
  size: '300Gi',
  usage: '47%',
  events: false,
  stack: {
    appConfig: { minimumGasPrices: NEW_GAS },
    specUpdate,
    pod: { node: 'kwok', generation: 1, configHash: hashFor(opts('cfg-1'), OLD_GAS) },
  },
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'cfg-0',
    symptomRule: 'config-change-restart',
    description:
      'cfg-0 recreated ~4 min ago after a config change (config-hash equal on pod and ConfigMap, new value; NodeRestarted; operator log "config changed"/"recreating pod"); cfg-1 has a pending restart (ConfigMap hash != pod hash, deferred by disruption limits).',
  },

  async seed(s) {
    const [c0, c1] = await Promise.all([seedRunningNode(s, CFG0), seedRunningNode(s, CFG1)])
    const oldPod: KObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'cfg-0', namespace: NS, uid: uuidFrom(`${NS}/cfg-0/previous-pod`) },
      spec: { nodeName: s.ctx.kwokNode },
    }
    await Promise.all([
      // cfg-0: first start days ago, then the config-change restart.
      cnEvent(s, c0.cn, 'NodeStarted', 'Node successfully started', { firstAgo: 12 * DAY }),
      cnEvent(s, c0.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: 12 * DAY - 3 * HOUR }),
      kubeletEvent(s, oldPod, 'Killing', 'Stopping container app', { container: 'app', firstAgo: RESTART_AGO + 28 }),
      kubeletEvent(s, oldPod, 'Killing', 'Stopping container node-utils', {
        container: 'node-utils',
        init: true,
        firstAgo: RESTART_AGO + 25,
      }),
      podStartEvents(s, c0.pod!, RESTART_AGO - 2),
      cnEvent(s, c0.cn, 'NodeRestarted', 'Node restarted', { firstAgo: RESTART_AGO - 40 }),
      cnEvent(s, c0.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: 70 }),
      // cfg-1: untouched since its start; the pending restart shows only in hashes and logs.
      cnEvent(s, c1.cn, 'NodeStarted', 'Node successfully started', { firstAgo: CFG1.age - 40 }),
      cnEvent(s, c1.cn, 'NodeRunning', 'Node is synced and running', { firstAgo: CFG1.age - 3 * 600 }),
      podStartEvents(s, c1.pod!, CFG1.age).then(() => undefined),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    const f0 = (id: string) => reconcileFields('ChainNode', NS, 'cfg-0', uuidFrom(id))
    const f1 = (id: string) => reconcileFields('ChainNode', NS, 'cfg-1', uuidFrom(id))
    const oldHash = hashFor(opts('cfg-0'), OLD_GAS)
    const newHash = hashFor(opts('cfg-0'), NEW_GAS)
    const t = (sec: number) => ago(now, sec)
    lines.push(
      zapJson(t(RESTART_AGO + 31), 'info', undefined, 'updating configmap', { ...f0('r0'), configmap: 'cfg-0' }),
      zapJson(t(RESTART_AGO + 30), 'info', undefined, 'config changed', {
        ...f0('r0'),
        pod: 'cfg-0',
        podConfigHash: oldHash,
        configHash: newHash,
      }),
      zapJson(t(RESTART_AGO + 30), 'info', undefined, 'recreating pod', { ...f0('r0'), pod: 'cfg-0', reason: 'config changed' }),
      zapJson(t(RESTART_AGO + 2), 'info', undefined, 'creating pod', { ...f0('r1'), pod: 'cfg-0' }),
      zapJson(t(RESTART_AGO - 40), 'info', undefined, 'pod started', { ...f0('r2'), pod: 'cfg-0' }),
    )
    const oldHash1 = hashFor(opts('cfg-1'), OLD_GAS)
    const newHash1 = hashFor(opts('cfg-1'), NEW_GAS)
    lines.push(zapJson(t(RESTART_AGO + 29), 'info', undefined, 'updating configmap', { ...f1('q0'), configmap: 'cfg-1' }))
    for (let sec = RESTART_AGO + 29, i = 0; sec >= 72; sec -= 15, i++) {
      lines.push(
        zapJson(t(sec), 'info', undefined, 'config changed', {
          ...f1(`q${i}`),
          pod: 'cfg-1',
          podConfigHash: oldHash1,
          configHash: newHash1,
        }),
        zapJson(t(sec - 0.01), 'info', undefined, 'delaying pod recreation due to disruption limits', {
          ...f1(`q${i}`),
          pod: 'cfg-1',
          unavailable: 1,
          maxUnavailable: 1,
        }),
      )
    }
    return lines
  },

  async refresh(s) {
    await Promise.all([refreshRunningNode(s, CFG0), refreshRunningNode(s, CFG1)])
  },
})
