import { chainProbeOf, describeMovement, movementOf } from '../snapshot/chain.js'
import { refOf } from '../snapshot/index.js'
import { mainContainerName, podReady } from '../snapshot/node-layout.js'
import { badServers, measuredStall, readinessRefusals, stateSyncEvidence } from '../analysis/chain-evidence.js'
import { chainLogSignals } from '../analysis/chain-logs.js'
import { defineRule, type Evidence } from '../engine/define-rule.js'
import type { ChainFacts } from '../snapshot/types.js'
import { configFile, tomlString } from '../snapshot/node-config.js'
import { eventEvidence, field } from '../engine/evidence.js'
import { grepLogs } from '../analysis/grep-logs.js'
import { logLines } from '../snapshot/log-lines.js'
import { matchingEvents } from '../snapshot/events.js'

const PEER_TROUBLE = /no addresses to dial|dialing failed|Error dialing peer|connection refused|i\/o timeout|no peers|numPeers["=: ]+0|"?outbound"?[=: ]+0/i
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

/** The last block of a chain measured as stalled: the probe that saw it came later. */
function stalledSince(facts: ChainFacts | undefined): string | undefined {
  const movement = facts?.status ? movementOf(facts) : undefined
  return movement?.kind === 'stalled' ? movement.since : undefined
}

export default defineRule<NotSyncing>({
  id: 'not-syncing',
  title: 'Node not syncing: height not advancing',
  severity: 'error',
  specRow: 'Node not syncing / height not advancing',
  // A validator that is behind cannot sign: its missed blocks follow from the stall.
  explains: ['validator-missed-blocks', 'block-threshold-unhealthy'],
  logs: ['main', 'node-utils'],
  check({ index, node, pod, now }) {
    const phase = node.status?.phase ?? ''
    if (!pod || !['Running', 'Syncing', 'StateSyncing'].includes(phase)) return []
    const main = mainContainerName(node, pod)
    const facts = chainProbeOf(index.snapshot, pod)?.chain
    const measured = facts?.status ? measuredStall(facts) : undefined
    if (facts?.status && !measured) return []
    const evidence: Evidence[] = [field(node, '.status.phase', phase), field(node, '.status.latestHeight', node.status?.latestHeight)]
    if (measured) evidence.push(...measured)
    else {
      const signals = chainLogSignals(main ? logLines(index, pod, main) : [], `log of ${pod.metadata.name}/${main}`, now)
      // Blocks committed a moment ago outweigh any probe or Event: the node is catching up or in sync.
      if (signals.progressing) return []
      const probeFailures = readinessRefusals(index, pod, now)
      // node-utils logs syncing=true on every readiness check while a node catches up: context, not a stall.
      const syncingLogs = grepLogs(index, pod, 'node-utils', /syncing=true|latest block .*age=/, 5, { anyLevel: true })
      const fromLogs = [signals.zeroPeers, signals.nothingToDial, signals.seedsUnreachable, signals.consensusStuck].filter((e) => e !== undefined)
      const stalled = probeFailures.length > 0 || fromLogs.length > 0
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
    // `not adding state-sync details: ...` (also NoTrustHeight) is noise of every reconcile, not a restore problem.
    const stateSyncEvents = matchingEvents(
      index,
      node,
      (e) =>
        ['NoPeers', 'NoTrustHeight'].includes(e.reason ?? '') && /not restoring from state-sync/.test(e.message ?? '') && node.spec?.stateSyncRestore === true,
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
        since: stalledSince(facts),
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
  // Checked against the evidence: a node with peers is not told first to add peers.
  action: (d) =>
    [
      ...(d.peers
        ? [
            'Compare the height with other nodes of the chain (a halted chain needs its validators back)',
            'read the app container logs for consensus or networking errors',
          ]
        : d.peers === 0 || !d.peersConfigured
          ? ['Check connected peers and set persistentPeers/seeds on the ChainNode', 'read the app container logs for consensus or networking errors']
          : ['Read the app container logs for consensus or networking errors', 'check connected peers and persistentPeers/seeds on the ChainNode']),
      d.stateSync ? 'check state-sync trust height/hash and that the RPC servers are reachable' : '',
      d.blockThreshold ? 'the node stays NotReady until it catches up within blockThreshold' : '',
    ]
      .filter(Boolean)
      .join('; ') + '.',
})
