import { nodesOf } from '../engine/define-rule.js'
import type { ClusterReport } from '../engine/doctor-result.js'
import { blockAgeMs, chainProbeOf } from '../snapshot/chain.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { CosmosReading, Snapshot } from '../snapshot/types.js'
import type { SourceHealth } from './serve-sources.js'

/** What one cycle of `serve` read of one ChainNode, kept between cycles (the snapshot itself is not). */
export interface NodeReading {
  namespace: string
  chainnode: string
  /** Set only when the run reads several contexts (--context a,b): a label then tells the clusters apart. */
  context?: string
  /** Whether the chain probe answered; undefined when the run took none (--no-probe). */
  probeSuccess?: boolean
  height?: number
  blockAgeSeconds?: number
  peers?: number
  catchingUp?: boolean
  /** `.status.jailed` as the operator wrote it; undefined for a node that is no validator. */
  jailed?: boolean
  /** Blocks of the signing window the validator did not sign, and how many were counted; undefined when none was. */
  missedBlocks?: number
  signingWindowCounted?: number
  /** What the chain's Cosmos SDK modules say (cluster/cosmos-probe.ts); undefined where they were not read. */
  cosmos?: {
    windowMissed?: number
    windowSize?: number
    tombstoned?: boolean
    upgrade?: { name: string; height: number; etaSeconds?: number }
    unvotedProposals?: number
  }
}

export interface ActiveFinding {
  namespace: string
  chainnode: string
  context?: string
  rule: string
  severity: string
}

/** The readings and findings of one cluster, from its snapshot and report. */
export function readingsOf(snapshot: Snapshot, cluster: ClusterReport, probed: boolean, context?: string): { nodes: NodeReading[]; findings: ActiveFinding[] } {
  const index = new SnapshotIndex(snapshot)
  const nodes = index.chainNodes().map((node): NodeReading => {
    const probe = probed ? chainProbeOf(snapshot, index.podOf(node)) : undefined
    const facts = probe?.chain
    const latest = facts?.resample ?? facts?.status
    const age = facts ? blockAgeMs(facts) : undefined
    const jailed = node.status?.jailed
    return {
      namespace: node.metadata.namespace ?? '',
      chainnode: node.metadata.name,
      ...(context !== undefined ? { context } : {}),
      ...(probed ? { probeSuccess: Boolean(probe?.ok) } : {}),
      ...(latest ? { height: latest.height, catchingUp: latest.catchingUp } : {}),
      ...(age !== undefined ? { blockAgeSeconds: age / 1000 } : {}),
      ...(facts?.peers ? { peers: facts.peers.total } : {}),
      ...(typeof jailed === 'boolean' ? { jailed } : {}),
      ...(facts?.signing && facts.signing.counted > 0 ? { missedBlocks: facts.signing.missed, signingWindowCounted: facts.signing.counted } : {}),
      ...(facts?.cosmos?.prefix ? { cosmos: cosmosReading(facts.cosmos) } : {}),
    }
  })
  const findings = cluster.report.findings.flatMap((finding) =>
    nodesOf(finding).map((node) => ({
      namespace: node.namespace ?? '',
      chainnode: node.name,
      ...(context !== undefined ? { context } : {}),
      rule: finding.ruleId,
      severity: finding.severity,
    })),
  )
  return { nodes, findings }
}

/** The Cosmos SDK readings of one node as metric values; a part the chain did not answer stays absent (no series). */
function cosmosReading(cosmos: CosmosReading): NonNullable<NodeReading['cosmos']> {
  const info = cosmos.validator?.signingInfo
  const plan = cosmos.upgradePlan
  const votes = cosmos.validator?.votes
  return {
    ...(info && cosmos.slashing ? { windowMissed: info.missedBlocksCounter, windowSize: cosmos.slashing.signedBlocksWindow } : {}),
    ...(info ? { tombstoned: info.tombstoned } : {}),
    ...(plan
      ? {
          upgrade: {
            name: plan.name,
            height: plan.height,
            ...(cosmos.blockTimeMs && cosmos.height !== undefined
              ? { etaSeconds: (Math.max(0, plan.height - cosmos.height) * cosmos.blockTimeMs) / 1000 }
              : {}),
          },
        }
      : {}),
    ...(votes && cosmos.proposals ? { unvotedProposals: cosmos.proposals.filter((p) => Object.hasOwn(votes, p.id) && votes[p.id] === null).length } : {}),
  }
}

/** Where the process stands, across cycles. */
export interface ServeStatus {
  version: string
  nodeVersion: string
  /** Readings of the last cycle that read the cluster; kept when a later one could not. */
  nodes: readonly NodeReading[]
  findings: readonly ActiveFinding[]
  cycles: number
  failedCycles: number
  /** Whether the last cycle read everything it meant to (no collection error, no failure). */
  lastRunSuccess: boolean
  lastRunDurationSeconds?: number
  lastRunApiRequests?: number
  /** Lists answered from watches instead of being listed again (kept current since an earlier cycle). */
  watchedLists: number
  lastSuccessAtSeconds?: number
  /** Each source the last cycle read, whether it answered and how many of its reads failed. */
  sources: readonly SourceHealth[]
  /** Unix time of the cycle the readings and findings above are from (older than the interval while serve is blind). */
  readingsAtSeconds?: number
  /** Cycles in a row, up to the last, that could not read the API server (0 once one could). */
  blindInARow: number
  apiRequestsTotal: number
}
