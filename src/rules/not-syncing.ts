import { chainProbeOf, describeMovement, isRecent, movementOf } from '../snapshot/chain.js'
import { refOf, type SnapshotIndex } from '../snapshot/index.js'
import { mainContainerName, podReady } from '../snapshot/node-layout.js'
import type { ChainFacts, KubeObject } from '../snapshot/types.js'
import { chainLogSignals } from './chain-logs.js'
import { defineRule, type Evidence } from './define-rule.js'
import { configFile, eventEvidence, field, grepLogs, logLines, matchingEvents, tomlString } from './helpers.js'

const PEER_TROUBLE =
  /no addresses to dial|dialing failed|Error dialing peer|connection refused|i\/o timeout|no peers|numPeers["=: ]+0|"?outbound"?[=: ]+0|Ensure peers/i
// Case matters: every healthy start logs `appHash=...`; a mismatch says `wrong Block.Header.AppHash`.
const CONSENSUS_TROUBLE = /CONSENSUS FAILURE|wrong Block\.Header|AppHash mismatch|panic/

interface NotSyncing {
  phase: string
  peersConfigured: boolean
  stateSync: boolean
  blockThreshold?: string
  notReady: boolean
  height?: number
  /** What the probe measured on the node ("stalled at 9 since ..."), when it answered. */
  measured?: string
  peers?: number
  /** State-sync RPC servers that did not answer, or whose hash at the trust height differs. */
  badServers?: string[]
}

export default defineRule<NotSyncing>({
  id: 'not-syncing',
  title: 'Node not syncing: height not advancing',
  severity: 'error',
  specRow: 'Node not syncing / height not advancing',
  logs: ['main', 'node-utils'],
  check({ index, node, pod, now }) {
    const phase = node.status?.phase
    if (!pod || !['Running', 'Syncing', 'StateSyncing'].includes(phase)) return []
    const main = mainContainerName(node, pod)
    const facts = chainProbeOf(index.snapshot, pod)?.chain
    const measured = facts?.status ? measuredStall(facts) : undefined
    if (facts?.status && !measured) return []
    const evidence: Evidence[] = [field(node, '.status.phase', phase), field(node, '.status.latestHeight', node.status?.latestHeight)]
    if (measured) evidence.push(...measured)
    else {
      const probeFailures = matchingEvents(index, pod, (e) => e.reason === 'Unhealthy' && /statuscode: 417/.test(e.message))
      const syncingLogs = grepLogs(index, pod, 'node-utils', /syncing=true|error getting latest block|latest block .*age=/)
      const signals = chainLogSignals(main ? logLines(index, pod, main) : [], `log of ${pod.metadata.name}/${main}`, now)
      const fromLogs = signals.progressing
        ? []
        : [signals.zeroPeers, signals.nothingToDial, signals.seedsUnreachable, signals.consensusStuck].filter((e) => e !== undefined)
      const stalled = probeFailures.length > 0 || (phase !== 'Running' && syncingLogs.length >= 3) || fromLogs.length > 0
      if (!stalled) return []
      const probe = chainProbeOf(index.snapshot, pod)
      if (probe) evidence.push({ kind: 'probe', source: probe.target, text: `no measurement: ${probe.detail}`, at: probe.at })
      evidence.push(...probeFailures.map(eventEvidence), ...syncingLogs.slice(-2), ...fromLogs)
      if (fromLogs.length === 0) evidence.push(...grepLogs(index, pod, main, PEER_TROUBLE))
      evidence.push(...grepLogs(index, pod, main, CONSENSUS_TROUBLE, 3))
    }
    const config = configFile(index, node, 'config.toml')
    const peers = tomlString(config, 'p2p', 'persistent_peers') ?? ''
    const seeds = tomlString(config, 'p2p', 'seeds') ?? ''
    if (config !== undefined) {
      evidence.push({ kind: 'field', source: `ConfigMap/${node.metadata.name} config.toml`, text: `persistent_peers = "${peers}", seeds = "${seeds}"` })
    }
    const stateSyncEvents = matchingEvents(
      index,
      node,
      (e) => ['NoPeers', 'NoTrustHeight'].includes(e.reason) && /state-sync/.test(e.message) && node.spec?.stateSyncRestore,
    )
    evidence.push(...stateSyncEvents.map(eventEvidence), ...stateSyncEvidence(index, node, facts))
    const blockThreshold = node.spec?.config?.blockThreshold
    return [
      {
        subject: refOf(node),
        data: {
          phase,
          peersConfigured: config === undefined || peers !== '' || seeds !== '',
          stateSync: Boolean(node.spec?.stateSyncRestore),
          blockThreshold: blockThreshold && blockThreshold !== '0s' ? blockThreshold : undefined,
          notReady: !podReady(pod),
          height: facts?.status?.height ?? node.status?.latestHeight,
          measured: facts?.status ? describeMovement(movementOf(facts)) : undefined,
          peers: facts?.peers?.total,
          badServers: badServers(facts),
        },
        evidence,
      },
    ]
  },
  summary: (d) =>
    d.measured
      ? `height not advancing: ${d.measured}${d.peers !== undefined ? `, ${d.peers} peer(s)` : ''}${d.notReady ? ', pod not Ready' : ''}`
      : `node is not catching up (phase ${d.phase}, height ${d.height ?? 'unknown'})${d.notReady ? ', pod not Ready' : ''}`,
  cause: (d) =>
    [
      d.peers === 0
        ? 'the node has no peer: without peers there is no sync'
        : d.peersConfigured
          ? d.measured && d.peers
            ? 'the node has peers but no new blocks: the chain itself may have halted (lost 2/3 of voting power), or its peers are stuck too'
            : 'peers are configured; check the app logs for networking or consensus errors'
          : 'no persistent_peers and no seeds are configured: without peers there is no sync',
      d.stateSync ? 'state-sync restore is on: trust height/hash and RPC servers must be reachable' : '',
      d.badServers?.length ? `state-sync RPC server(s) not usable: ${d.badServers.join(', ')}` : '',
      d.blockThreshold ? `blockThreshold ${d.blockThreshold} makes node-utils mark a stalled node unhealthy (NotReady)` : '',
    ]
      .filter(Boolean)
      .join('; '),
  action: (d) =>
    [
      'Check connected peers and set persistentPeers/seeds on the ChainNode',
      'read the app container logs for consensus or networking errors',
      d.peers ? 'compare the height with other nodes of the chain (a halted chain needs its validators back)' : '',
      d.stateSync ? 'check state-sync trust height/hash and that the RPC servers are reachable' : '',
      d.blockThreshold ? 'the node stays NotReady until it catches up within blockThreshold' : '',
    ]
      .filter(Boolean)
      .join('; ') + '.',
})

/** Evidence that the height does not move, from the node's own answers; undefined when it does. */
function measuredStall(facts: ChainFacts): Evidence[] | undefined {
  const status = facts.status!
  const movement = movementOf(facts)
  const zeroPeers = facts.peers?.total === 0
  const stalled = movement.kind === 'stalled' || (movement.kind === 'unknown' && !isRecent(facts) && (zeroPeers || status.catchingUp))
  if (!stalled) return undefined
  const source = 'CometBFT RPC /status'
  const lastBlock = status.blockTime ? `last block at ${status.blockTime}` : 'no block yet'
  const evidence: Evidence[] = [
    { kind: 'probe', source, text: `height ${status.height}, ${lastBlock}, catching_up ${status.catchingUp}, network ${status.network}`, at: status.at },
  ]
  if (facts.resample)
    evidence.push({ kind: 'probe', source, text: `height ${facts.resample.height} again: ${describeMovement(movement)}`, at: facts.resample.at })
  if (facts.peers) {
    const shown = facts.peers.list.slice(0, 5).map((p) => `${p.id.slice(0, 12)}@${p.address}${p.outbound ? ' out' : ' in'}`)
    evidence.push({
      kind: 'probe',
      source: 'CometBFT RPC /net_info',
      text: `${facts.peers.total} peer(s): ${facts.peers.inbound} inbound, ${facts.peers.outbound} outbound${shown.length ? ` (${shown.join(', ')})` : ''}`,
      at: facts.peers.at,
    })
  }
  if (facts.nodeUtils?.latestHeight !== undefined || facts.nodeUtils?.stateSyncing !== undefined) {
    const { latestHeight, stateSyncing, port, at } = facts.nodeUtils
    evidence.push({ kind: 'probe', source: `node-utils :${port}`, text: `/latest_height ${latestHeight ?? '?'}, /state_syncing ${stateSyncing ?? '?'}`, at })
  }
  return [...evidence, ...facts.problems.map((text) => ({ kind: 'probe' as const, source: 'chain probe', text, at: status.at }))]
}

function badServers(facts: ChainFacts | undefined): string[] | undefined {
  const servers = facts?.stateSync?.servers
  if (!servers) return undefined
  const trustHash = facts!.stateSync!.trustHash?.toUpperCase()
  const bad = servers.filter((s) => s.problem || (trustHash && s.hashAtTrustHeight && s.hashAtTrustHeight.toUpperCase() !== trustHash)).map((s) => s.url)
  return bad.length ? bad : undefined
}

function stateSyncEvidence(index: SnapshotIndex, node: KubeObject, facts: ChainFacts | undefined): Evidence[] {
  if (!node.spec?.stateSyncRestore) return []
  const config = configFile(index, node, 'config.toml')
  const source = `ConfigMap/${node.metadata.name} config.toml [statesync]`
  const rendered = facts?.stateSync ?? {
    trustHeight: Number(/trust_height\s*=\s*(\d+)/.exec(config ?? '')?.[1] ?? 0) || undefined,
    trustHash: /trust_hash\s*=\s*"([^"]*)"/.exec(config ?? '')?.[1] || undefined,
    servers: [],
  }
  const evidence: Evidence[] = [
    {
      kind: 'field',
      source,
      text: `trust_height = ${rendered.trustHeight ?? 0}, trust_hash = "${rendered.trustHash ?? ''}", rpc_servers = "${tomlString(config, 'statesync', 'rpc_servers') ?? ''}"`,
    },
  ]
  for (const server of rendered.servers) {
    const text = server.problem
      ? `${server.url} not reachable: ${server.problem}`
      : `${server.url}: height ${server.latestHeight ?? '?'}${
          rendered.trustHeight && server.latestHeight !== undefined && server.latestHeight < rendered.trustHeight ? ' (below the trust height)' : ''
        }, hash at ${rendered.trustHeight ?? '?'} ${server.hashAtTrustHeight ?? '?'}${
          rendered.trustHash && server.hashAtTrustHeight && server.hashAtTrustHeight.toUpperCase() !== rendered.trustHash.toUpperCase()
            ? ' (differs from trust_hash)'
            : ''
        }`
    evidence.push({ kind: 'probe', source: 'state-sync RPC server', text, at: server.at })
  }
  return evidence
}
