import { describeMovement, isRecent, movementOf } from '../snapshot/chain.js'
import type { SnapshotIndex } from '../snapshot/index.js'
import { podReady } from '../snapshot/node-layout.js'
import type { ChainFacts, CosmosReading, CosmosValidatorReading, SigningReading } from '../snapshot/types.js'
import type { Evidence } from '../engine/define-rule.js'
import { cosmosQuery } from '../engine/evidence.js'
import { ageMs, humanAge } from '../util/duration.js'
import { configFile, tomlString } from '../snapshot/node-config.js'
import { matchingEvents, eventText, eventTime } from '../snapshot/events.js'
import type { ChainNode, KubeEvent, Pod } from '../snapshot/kinds.js'

/**
 * Once its burst is spent, kubelet's event recorder updates a still-failing probe's Event at most every
 * 5 minutes (client-go's spam filter): a failure seen within this window can still be going on.
 */
const RECENT_PROBE_FAILURE_MS = 15 * 60_000

/**
 * node-utils' /ready answering 417 (syncing, or newest block older than blockThreshold) now: the Pod is
 * not Ready and kubelet saw the 417 recently. An old failure on a Pod that is Ready again is history.
 */
export function readinessRefusals(index: SnapshotIndex, pod: Pod, now: number): KubeEvent[] {
  if (podReady(pod)) return []
  return matchingEvents(
    index,
    pod,
    (e) => e.reason === 'Unhealthy' && /statuscode: 417/.test(eventText(e)) && ageMs(now, eventTime(e)) <= RECENT_PROBE_FAILURE_MS,
  )
}

/** Evidence that the height does not move, from the node's own answers; undefined when it does. */
export function measuredStall(facts: ChainFacts): Evidence[] | undefined {
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
  else if (facts.stale && facts.runningSince && status.height === 0)
    evidence.push({
      kind: 'probe',
      source,
      text: `height 0 ${humanAge(Date.parse(status.at) - Date.parse(facts.runningSince))} after its container started (${facts.runningSince}): ${describeMovement(movement)}`,
      at: status.at,
    })
  else if (facts.stale && facts.stuckInLog) {
    const stuck = facts.stuckInLog
    evidence.push(
      {
        kind: 'probe',
        source,
        text: `height ${status.height}, and its log commits nothing above it: consensus timed out at height ${stuck.height} from ${stuck.since} on: ${describeMovement(movement)}`,
        at: status.at,
      },
      { kind: 'log', source: stuck.source, text: stuck.text, at: stuck.at },
    )
  }
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

export function badServers(facts: ChainFacts | undefined): string[] | undefined {
  const servers = facts?.stateSync?.servers
  if (!servers) return undefined
  const trustHash = facts!.stateSync!.trustHash?.toUpperCase()
  const bad = servers.filter((s) => s.problem || (trustHash && s.hashAtTrustHeight && s.hashAtTrustHeight.toUpperCase() !== trustHash)).map((s) => s.url)
  return bad.length ? bad : undefined
}

export function stateSyncEvidence(index: SnapshotIndex, node: ChainNode, facts: ChainFacts | undefined): Evidence[] {
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

/** Where a node is against the tip, as its own /status says: 'synced', 'catching up', 'stalled', 'unknown' or 'no answer'. */
export function syncState(facts: ChainFacts): string {
  if (!facts.status) return 'no answer'
  if (facts.status.catchingUp) return 'catching up'
  const movement = movementOf(facts)
  return movement.kind === 'moving' ? 'synced' : movement.kind === 'stalled' ? 'stalled' : movement.kind === 'catching-up' ? 'catching up' : 'unknown'
}

/** The commits counted for a validator, with the heights it missed (the latest ten). */
export function commitsEvidence(reading: SigningReading): Evidence {
  const missed = reading.missed
    ? `, missed ${reading.missedHeights.slice(-10).join(', ')}${reading.missed > 10 ? ` (the latest 10 of ${reading.missed})` : ''}`
    : ''
  return {
    kind: 'probe',
    source: `CometBFT RPC /commit via ${reading.source}`,
    text: reading.counted
      ? `${reading.address} signed ${reading.signed} of ${reading.counted} commits (heights ${reading.fromHeight}-${reading.toHeight})${missed}`
      : `no commit counted: ${reading.problems[0] ?? 'none read'}`,
    at: reading.at,
  }
}

/** The chain's staking record of a validator and its signing info (jailed_until), as read over abci_query. */
export function stakingEvidence(cosmos: CosmosReading, validator: CosmosValidatorReading): Evidence[] {
  const { staking, signingInfo: info } = validator
  return [
    ...(staking
      ? [
          cosmosQuery(
            cosmos,
            'staking.v1beta1.Query/Validator',
            `${staking.operatorAddress}: jailed ${staking.jailed}, status ${staking.status}, tokens ${staking.tokens}`,
          ),
        ]
      : []),
    ...(info
      ? [
          cosmosQuery(
            cosmos,
            'slashing.v1beta1.Query/SigningInfo',
            `${info.address}: jailed_until ${info.jailedUntil ?? '(unset)'}, missed_blocks_counter ${info.missedBlocksCounter}`,
          ),
        ]
      : []),
  ]
}
