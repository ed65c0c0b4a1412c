/**
 * Test-cluster scenarios: one namespace per diagnosable situation, seeded with the objects the
 * cosmopilot operator (5.0.0 line), the kubelet and the scheduler would have produced.
 *
 *   await seedScenarios(ctx)                   // all of them (+ the shared operator install)
 *   await seedScenarios(ctx, ['sc-healthy'])   // a subset
 *   await refreshLiveness(ctx)                 // keep healthy leases/heights fresh
 */
import { Api, type KObject } from './lib/api.js'
import { clusterIO } from './lib/io.js'
import { OPERATOR_NS } from './lib/operator.js'
import type { Scenario } from './lib/scenario.js'
import { Seeder, type ClusterIO } from './lib/seeder.js'
import { finalizeShared, refreshShared, seedClusterScoped, seedShared } from './shared.js'
import type { ScenarioCtx, ScenarioInfo } from './types.js'
import scHealthy from './sc-healthy.js'
import scHealthyLegacy from './sc-healthy-legacy.js'
import scConfigChangeRestart from './sc-config-change-restart.js'
import scImagePull from './sc-image-pull.js'
import scNotSyncing from './sc-not-syncing.js'
import scSnapshotVerify from './sc-snapshot-verify.js'
import scRestoreNotStarting from './sc-restore-not-starting.js'
import scPvcNotGrowing from './sc-pvc-not-growing.js'
import scProfilingUnavailable from './sc-profiling-unavailable.js'
import scSignerDiscoveryTimeout from './sc-signer-discovery-timeout.js'
import scSignerPubkey from './sc-signer-pubkey.js'
import scLegacySigning from './sc-legacy-signing.js'
import scLeaderElection from './sc-leader-election.js'
import scWebhookCertificates from './sc-webhook-certificates.js'
import scHealthyChain from './sc-healthy-chain.js'
import scChainNoPeers from './sc-chain-no-peers.js'
import scChainHalt from './sc-chain-halt.js'
import scChainRpcDead from './sc-chain-rpc-dead.js'
import scValidators from './sc-validators.js'
import scReconcileFailing from './sc-reconcile-failing.js'
import scPhaseStuck from './sc-phase-stuck.js'
import scHealthyNoLeaderElection from './sc-healthy-no-leader-election.js'
import scOperatorVocabulary from './sc-operator-vocabulary.js'
import scCosmos from './sc-cosmos.js'

export type { ScenarioCtx, ScenarioInfo } from './types.js'

const ALL: Scenario[] = [
  scHealthy,
  scHealthyLegacy,
  scConfigChangeRestart,
  scImagePull,
  scNotSyncing,
  scSnapshotVerify,
  scRestoreNotStarting,
  scPvcNotGrowing,
  scProfilingUnavailable,
  scSignerDiscoveryTimeout,
  scSignerPubkey,
  scLegacySigning,
  scLeaderElection,
  scWebhookCertificates,
  scHealthyChain,
  scChainNoPeers,
  scChainHalt,
  scChainRpcDead,
  scValidators,
  scReconcileFailing,
  scPhaseStuck,
  scHealthyNoLeaderElection,
  scOperatorVocabulary,
]

/** Seeded only when named (seedScenarios(ctx, ['sc-cosmos'])): a chain a test drives through time, too costly to run beside the fleet. */
const ON_DEMAND: Scenario[] = [scCosmos]

export const SCENARIOS: ScenarioInfo[] = ALL.map((s) => s.info)

export function scenarioInfo(name: string): ScenarioInfo {
  const s = SCENARIOS.find((x) => x.name === name)
  if (!s) throw new Error(`unknown scenario ${name}`)
  return s
}

function pick(names?: string[]): Scenario[] {
  if (!names) return ALL
  const known = [...ALL, ...ON_DEMAND]
  const unknown = names.filter((n) => !known.some((s) => s.info.name === n))
  if (unknown.length) throw new Error(`unknown scenario(s): ${unknown.join(', ')}`)
  return known.filter((s) => names.includes(s.info.name))
}

/** When a scenario's namespace was seeded: the "now" its operator log lines are written against. */
const SEEDED_AT = 'chainnode.test/seeded-at'

function namespace(name: string, scenario?: string, seededAt?: Date): KObject {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: scenario ? { 'chainnode.test/scenario': scenario } : ({} as Record<string, string>),
      ...(seededAt ? { annotations: { [SEEDED_AT]: seededAt.toISOString() } } : {}),
    },
  }
}

function isIO(x: unknown): x is ClusterIO {
  return !!x && typeof (x as ClusterIO).setLogs === 'function' && typeof (x as ClusterIO).forwardPort === 'function'
}

/**
 * Seed the shared operator install and the given scenarios (all by default). Resolves with the
 * infos of the seeded scenarios. (A ClusterIO in place of `names` is accepted for callers that
 * bring their own log/port-forward helpers.)
 */
export async function seedScenarios(ctx: ScenarioCtx, names?: string[] | ClusterIO): Promise<ScenarioInfo[]> {
  const chosen = pick(Array.isArray(names) ? names : undefined)
  const api = new Api(ctx)
  const io = isIO(names) ? names : clusterIO(ctx)
  const now = new Date()
  const seeder = (ns: string) => new Seeder(ctx, api, io, now, ns)
  const sys = seeder(OPERATOR_NS)
  try {
    await Promise.all([
      seedClusterScoped(sys),
      api.upsert(namespace(OPERATOR_NS)),
      ...chosen.map((sc) => api.upsert(namespace(sc.info.namespace, sc.info.name, now))),
    ])
    const [shared] = await Promise.all([
      seedShared(sys),
      ...chosen.map(async (sc) => {
        try {
          await sc.seed(seeder(sc.info.namespace))
        } catch (e) {
          throw new Error(`seeding ${sc.info.name}: ${e instanceof Error ? e.message : String(e)}`, { cause: e })
        }
      }),
    ])
    // The shared manager log speaks about every scenario present in the cluster, not only the
    // ones seeded by this call (a subset re-seed must not drop the others' lines).
    // Each scenario's lines are dated against the time it was itself seeded: re-dating another scenario's lines to
    // this call's "now" would move them away from the Pods and Events seeded with them (a restart's "config
    // changed" line minutes after the restart).
    const seededAt = await Promise.all(
      ALL.map(async (sc) => {
        if (chosen.includes(sc)) return now
        const ns = await api.tryGet('v1', 'Namespace', undefined, sc.info.namespace)
        if (!ns) return undefined
        const at = Date.parse((ns.metadata as { annotations?: Record<string, string> }).annotations?.[SEEDED_AT] ?? '')
        return Number.isNaN(at) ? now : new Date(at)
      }),
    )
    const operatorLines = ALL.flatMap((sc, i) => (seededAt[i] ? (sc.operatorLogs?.(seededAt[i]) ?? []) : []))
    await Promise.all([finalizeShared(sys, shared, operatorLines), ...chosen.map((sc) => sc.finalize?.(seeder(sc.info.namespace)))])
    return chosen.map((sc) => sc.info)
  } finally {
    api.close()
  }
}

/**
 * Renew the healthy leader's Lease every 2 s, as the real manager does (client-go's retry period), until stopped:
 * re-stamping it only when a test asks let a slow run (a loaded CI machine) find it 30 s old and the leader lost.
 */
export function keepLeaderRenewing(ctx: ScenarioCtx, everyMs = 2_000): () => void {
  const api = new Api(ctx)
  const seeder = new Seeder(ctx, api, clusterIO(ctx), new Date(), OPERATOR_NS)
  let renewing = false
  const timer = setInterval(() => {
    if (renewing) return
    renewing = true
    refreshShared(seeder)
      .catch(() => undefined)
      .finally(() => (renewing = false))
  }, everyMs)
  timer.unref()
  return () => {
    clearInterval(timer)
    api.close()
  }
}

/** Re-stamp time-sensitive fields (leader Lease renewTime, heights, recent log lines). */
export async function refreshLiveness(ctx: ScenarioCtx, names?: string[]): Promise<void> {
  const chosen = pick(names)
  const api = new Api(ctx)
  const io = clusterIO(ctx)
  const now = new Date()
  try {
    await Promise.all([
      refreshShared(new Seeder(ctx, api, io, now, OPERATOR_NS)),
      ...chosen.map(async (sc) => {
        const exists = await api.tryGet('v1', 'Namespace', undefined, sc.info.namespace)
        if (exists && sc.refresh) await sc.refresh(new Seeder(ctx, api, io, now, sc.info.namespace))
      }),
    ])
  } finally {
    api.close()
  }
}
