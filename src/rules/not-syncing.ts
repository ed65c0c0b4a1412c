import { refOf } from '../snapshot/index.js'
import { mainContainerName, podReady } from '../snapshot/node-layout.js'
import { defineRule, type Evidence } from './define-rule.js'
import { configFile, eventEvidence, field, grepLogs, matchingEvents, tomlString } from './helpers.js'

const PEER_TROUBLE =
  /no addresses to dial|dialing failed|Error dialing peer|connection refused|i\/o timeout|no peers|numPeers["=: ]+0|"?outbound"?[=: ]+0|Ensure peers/i
const CONSENSUS_TROUBLE = /CONSENSUS FAILURE|wrong Block\.Header|AppHash|panic/i

export default defineRule<{ phase: string; peersConfigured: boolean; stateSync: boolean; blockThreshold?: string; notReady: boolean; height?: number }>({
  id: 'not-syncing',
  title: 'Node not syncing: height not advancing',
  severity: 'error',
  specRow: 'Node not syncing / height not advancing',
  logs: ['main', 'node-utils'],
  check({ index, node, pod }) {
    const phase = node.status?.phase
    if (!pod || !['Running', 'Syncing', 'StateSyncing'].includes(phase)) return []
    const main = mainContainerName(node, pod)
    const probeFailures = matchingEvents(index, pod, (e) => e.reason === 'Unhealthy' && /statuscode: 417/.test(e.message))
    const syncingLogs = grepLogs(index, pod, 'node-utils', /syncing=true|error getting latest block|latest block .*age=/)
    const stalled = probeFailures.length > 0 || (phase !== 'Running' && syncingLogs.length >= 3)
    if (!stalled) return []
    const config = configFile(index, node, 'config.toml')
    const peers = tomlString(config, 'p2p', 'persistent_peers') ?? ''
    const seeds = tomlString(config, 'p2p', 'seeds') ?? ''
    const peerLogs = grepLogs(index, pod, main, PEER_TROUBLE)
    const consensusLogs = grepLogs(index, pod, main, CONSENSUS_TROUBLE, 3)
    const stateSyncEvents = matchingEvents(
      index,
      node,
      (e) => ['NoPeers', 'NoTrustHeight'].includes(e.reason) && /state-sync/.test(e.message) && node.spec?.stateSyncRestore,
    )
    const blockThreshold = node.spec?.config?.blockThreshold
    const evidence: Evidence[] = [
      field(node, '.status.phase', phase),
      field(node, '.status.latestHeight', node.status?.latestHeight),
      ...probeFailures.map(eventEvidence),
      ...syncingLogs.slice(-2),
      ...(config !== undefined
        ? [{ kind: 'field' as const, source: `ConfigMap/${node.metadata.name} config.toml`, text: `persistent_peers = "${peers}", seeds = "${seeds}"` }]
        : []),
      ...peerLogs,
      ...consensusLogs,
      ...stateSyncEvents.map(eventEvidence),
    ]
    return [
      {
        subject: refOf(node),
        data: {
          phase,
          peersConfigured: config === undefined || peers !== '' || seeds !== '',
          stateSync: Boolean(node.spec?.stateSyncRestore),
          blockThreshold: blockThreshold && blockThreshold !== '0s' ? blockThreshold : undefined,
          notReady: !podReady(pod),
          height: node.status?.latestHeight,
        },
        evidence,
      },
    ]
  },
  summary: (d) => `node is not catching up (phase ${d.phase}, height ${d.height ?? 'unknown'})${d.notReady ? ', pod not Ready' : ''}`,
  cause: (d) =>
    [
      d.peersConfigured
        ? 'peers are configured; check the app logs for networking or consensus errors'
        : 'no persistent_peers and no seeds are configured: without peers there is no sync',
      d.stateSync ? 'state-sync restore is on: trust height/hash and RPC servers must be reachable' : '',
      d.blockThreshold ? `blockThreshold ${d.blockThreshold} makes node-utils mark a stalled node unhealthy (NotReady)` : '',
    ]
      .filter(Boolean)
      .join('; '),
  action: (d) =>
    [
      'Check connected peers and set persistentPeers/seeds on the ChainNode',
      'read the app container logs for consensus or networking errors',
      d.stateSync ? 'check state-sync trust height/hash and that the RPC servers are reachable' : '',
      d.blockThreshold ? 'the node stays NotReady until it catches up within blockThreshold' : '',
    ]
      .filter(Boolean)
      .join('; ') + '.',
})
