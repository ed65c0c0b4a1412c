/**
 * sc-profiling-unavailable: `prof-0` runs fine, but a user sidecar (cosmos-exporter, configured
 * with `--listen-address :6666`) starts before node-utils and holds 127.0.0.1:6666. node-utils
 * logs the bind warning and runs without profiling; a port-forward to pod port 6666 reaches the
 * exporter's plain HTTP page (ctx.pprofTakenPort) instead of pprof, or nothing at all.
 */
import { GAIA } from './lib/node.js'
import { refreshRunningNode, seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { DAY, HOUR } from './lib/util.js'

const NS = 'sc-profiling-unavailable'
const CHAIN = 'theta-testnet-001'

const EXPORTER = {
  name: 'cosmos-exporter',
  image: 'ghcr.io/solarlabsteam/cosmos-exporter:0.3.0',
  args: ['--listen-address', ':6666', '--node', 'localhost:9090', '--tendermint-rpc', 'http://localhost:26657'],
}

const NODE: RunningNode = {
  opts: {
    name: 'prof-0',
    chainID: CHAIN,
    app: GAIA,
    spec: {
      genesis: { url: 'https://raw.githubusercontent.com/cosmos/testnets/master/public/genesis.json.gz', chainID: CHAIN },
      persistence: { size: '200Gi', storageClass: 'expandable' },
      config: { sidecars: [EXPORTER] },
    },
  },
  age: 3 * DAY + 7 * HOUR,
  podIP: '10.244.1.100',
  size: '200Gi',
  usage: '35%',
  profiling: 'taken',
  stack: {
    pod: {
      node: 'kwok',
      sidecarsBefore: [
        {
          ...EXPORTER,
          restartPolicy: 'Always',
          resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { memory: '128Mi' } },
          imagePullPolicy: 'IfNotPresent',
        },
      ],
    },
  },
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'prof-0',
    symptomRule: 'profiling-unavailable',
    description:
      'prof-0: a user sidecar listens on :6666 before node-utils starts; node-utils logs "profiling disabled: listen tcp 127.0.0.1:6666: bind: address already in use"; port 6666 forwards to a non-pprof HTTP server.',
  },
  async seed(s) {
    const stack = await seedRunningNode(s, NODE)
    const start = new Date(s.now.getTime() - (NODE.age - 1) * 1000)
    await s.logs(stack.pod!.metadata.name, {
      'cosmos-exporter': {
        current: [
          { at: start, text: `{"level":"info","time":"${start.toISOString()}","message":"Listening","address":":6666"}` },
          {
            at: new Date(start.getTime() + 400),
            text: `{"level":"info","time":"${new Date(start.getTime() + 400).toISOString()}","message":"Started","node":"localhost:9090"}`,
          },
        ],
      },
    })
  },
  async refresh(s) {
    await refreshRunningNode(s, NODE)
  },
})
