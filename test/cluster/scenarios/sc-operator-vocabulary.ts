/**
 * sc-operator-vocabulary: three troubles only the operator's own words name (cosmopilot v3.0.0).
 * - `val-jailed`: a Running validator the chain jailed: `.status.jailed: true`, `validatorStatus: unbonding`,
 *   and the Warning Event `ValidatorJailed` ("Validator is jailed") recorded when the flag flipped.
 * - `full-disk`: a Running node whose data volume reached `autoResizeMaxSize`: `.status.dataUsage: 97%` and the
 *   Warning Event `PvcMaxSizeReached` repeated every reconcile.
 * - ChainNodeSet `no-genesis`, with no ChainNode yet: its genesis URL cannot be downloaded. Phase Initializing,
 *   the Warning Event `GenesisError` on the set, and controller-runtime's `Reconciler error` lines about it.
 * - `init-refused`: a LimitRange of the namespace refuses its data init Pod (pvc.go "failed to create init pod: …",
 *   the API server's LimitRanger text), retried with the manager's backoff from a minute ago; no Event.
 * - `val-nokey`: a validator whose consensus key Secret does not exist: every reconcile returns the NotFound.
 * - `val-statesync`: a Running validator whose snapshot list the operator cannot read from node-utils: the
 *   Warning Event `NoTrustHeight` ("not adding state-sync details: failed to list state-sync snapshots for …"),
 *   which the real manager records within seconds of the node's first reconcile (service.go).
 */
import { cnEvent, setEvent } from './lib/events.js'
import { reconcileFields, reconcilerError, retryTimes, zapJson, type LogLine } from './lib/logfmt.js'
import { GAIA, seedNode } from './lib/node.js'
import { seedRunningNode, type RunningNode } from './lib/running.js'
import { defineScenario } from './lib/scenario.js'
import { HOUR, MIN, ago, uuidFrom } from './lib/util.js'

const NS = 'sc-operator-vocabulary'
const CHAIN = 'cosmoshub-4'
const GENESIS = { url: 'https://github.com/cosmos/mainnet/raw/master/genesis/genesis.cosmoshub-4.json.gz', chainID: CHAIN }
const SET = 'no-genesis'
const SET_GENESIS_URL = 'https://genesis.example.invalid/genesis.json'
const SET_AGE = 25 * MIN
export const SET_GENESIS_ERROR = `Get "${SET_GENESIS_URL}": dial tcp: lookup genesis.example.invalid on 10.96.0.10:53: no such host`
export const LIMIT_RANGE_ERROR =
  'failed to create init pod: pods "init-refused-init-data" is forbidden: maximum memory usage per Container is 1Gi, but limit is 2Gi'
export const KEY_SECRET_ERROR = 'Secret "val-nokey-consensus-key" not found'
export const STATE_SYNC_EVENT =
  'not adding state-sync details: failed to list state-sync snapshots for val-statesync: Get "http://val-statesync-internal.sc-operator-vocabulary.svc.cluster.local:8000/snapshots": dial tcp 10.96.41.12:8000: connect: connection refused'
/** The manager's backoff since the first failure (seconds ago). */
const REFUSED_AGE = 60

const STATE_SYNC: RunningNode = {
  opts: { name: 'val-statesync', chainID: CHAIN, app: GAIA, validator: true, spec: { genesis: GENESIS, validator: {} } },
  age: 3 * MIN,
  podIP: '10.244.29.12',
  profiling: 'absent',
  stack: { status: { validator: true, jailed: false, validatorStatus: 'bonded' } },
}

const JAILED: RunningNode = {
  opts: { name: 'val-jailed', chainID: CHAIN, app: GAIA, validator: true, spec: { genesis: GENESIS, validator: {} } },
  age: 6 * HOUR,
  podIP: '10.244.29.10',
  profiling: 'absent',
  stack: {
    status: { validator: true, jailed: true, validatorStatus: 'unbonding', validatorAddress: 'cosmosvaloper1x9ff7ea6wqltq0grkjrxcs7cyvhq4sgnvpckcm' },
  },
}

const FULL: RunningNode = {
  opts: { name: 'full-disk', chainID: CHAIN, app: GAIA, spec: { genesis: GENESIS, persistence: { size: '1Ti', autoResizeMaxSize: '2Ti' } } },
  age: 9 * HOUR,
  podIP: '10.244.29.11',
  profiling: 'absent',
  size: '2Ti',
  usage: '97%',
}

export default defineScenario({
  info: {
    name: NS,
    namespace: NS,
    node: 'val-jailed',
    symptomRule: 'validator-jailed',
    description:
      'val-jailed is a jailed validator (status and ValidatorJailed Event); full-disk reached autoResizeMaxSize at 97% (PvcMaxSizeReached); ChainNodeSet no-genesis has no ChainNode: its genesis URL does not resolve (GenesisError, Reconciler error); a LimitRange refuses the init Pod of init-refused; validator val-nokey has no consensus key Secret; the operator cannot read the snapshot list of val-statesync (NoTrustHeight).',
  },

  async seed(s) {
    const [jailed, full, set, , , stateSync] = await Promise.all([
      seedRunningNode(s, JAILED),
      seedRunningNode(s, FULL),
      s.create({
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNodeSet',
        metadata: { name: SET, namespace: NS, finalizers: ['cosmopilot.voluzi.com/resource-cleanup'] },
        spec: {
          app: { app: 'gaiad', image: GAIA.image, version: GAIA.version, sdkVersion: 'v0.53' },
          genesis: { url: SET_GENESIS_URL },
          nodes: [{ name: 'fullnodes', instances: 2 }],
        },
      }),
      seedNode(
        s,
        {
          name: 'init-refused',
          chainID: CHAIN,
          app: GAIA,
          // The data init Pod asks resources only through the additional init commands (the real manager, v3.0.0).
          spec: {
            genesis: GENESIS,
            persistence: {
              size: '500Gi',
              additionalInitCommands: [{ image: 'busybox', command: ['sh', '-c'], args: ['true'], resources: { limits: { memory: '2Gi' } } }],
            },
          },
        },
        {
          pvc: { size: '500Gi', phase: 'Pending' },
          status: { phase: 'InitializingData', pvcSize: '500Gi', chainID: undefined, appVersion: undefined, ip: undefined },
          services: false,
          configMaps: false,
          pod: false,
        },
      ),
      seedNode(
        s,
        {
          name: 'val-nokey',
          chainID: CHAIN,
          app: GAIA,
          validator: true,
          spec: { genesis: GENESIS, validator: { privateKeySecret: 'val-nokey-consensus-key' } },
        },
        { pvc: false, status: { chainID: undefined, appVersion: undefined, ip: undefined }, services: false, configMaps: false, pod: false },
      ),
      seedRunningNode(s, STATE_SYNC),
    ])
    await Promise.all([
      cnEvent(s, jailed.cn, 'ValidatorJailed', 'Validator is jailed', { type: 'Warning', firstAgo: 40 * MIN }),
      cnEvent(s, full.cn, 'PvcMaxSizeReached', 'Data volume reached maximum allowed size (2Ti)', {
        type: 'Warning',
        count: 143,
        firstAgo: 36 * MIN,
        lastAgo: 10,
      }),
      cnEvent(s, stateSync.cn, 'NoTrustHeight', STATE_SYNC_EVENT, { type: 'Warning', count: 6, firstAgo: 2 * MIN, lastAgo: 15 }),
      s.status(set, { phase: 'Initializing', instances: 2, readyInstances: 0 }),
      setEvent(s, set, 'GenesisError', `Failed to download genesis from URL: lookup genesis.example.invalid on 10.96.0.10:53: no such host`, {
        type: 'Warning',
        count: 19,
        firstAgo: SET_AGE - 5,
        lastAgo: 20,
      }),
    ])
  },

  operatorLogs(now) {
    const lines: LogLine[] = []
    retryTimes(SET_AGE - 10).forEach((sec, i) => {
      const id = uuidFrom(`no-genesis/${i}`)
      const f = reconcileFields('ChainNodeSet', NS, SET, id)
      const at = (d: number) => ago(now, sec - d)
      lines.push(zapJson(at(0), 'info', undefined, 'retrieving genesis from url', { ...f, url: SET_GENESIS_URL }))
      lines.push(reconcilerError(at(0.05), 'ChainNodeSet', NS, SET, id, SET_GENESIS_ERROR))
    })
    // The real manager's backoff: the same refusal within seconds of the first reconcile, then farther apart.
    retryTimes(REFUSED_AGE).forEach((sec, i) => {
      for (const [name, error] of [
        ['init-refused', LIMIT_RANGE_ERROR],
        ['val-nokey', KEY_SECRET_ERROR],
      ] as const) {
        const id = uuidFrom(`${name}/${i}`)
        lines.push(zapJson(ago(now, sec), 'info', undefined, 'starting reconcile', reconcileFields('ChainNode', NS, name, id)))
        lines.push(reconcilerError(ago(now, sec - 0.02), 'ChainNode', NS, name, id, error))
      }
    })
    return lines.sort((a, b) => a.at.getTime() - b.at.getTime())
  },
})
