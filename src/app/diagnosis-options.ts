import type { Rule, RuleSettings } from '../engine/define-rule.js'
import { DEFAULT_MISSED_BLOCKS } from '../rules/validator-missed-blocks.js'
import { usageError } from '../util/errors.js'
import type { LogRole } from '../snapshot/node-layout.js'
import { logRolesOf, selectRules } from './doctor.js'
import { probeSigners } from './signer-probes.js'
import { CHAIN_PROBE_TIMEOUT_MS, DEFAULT_SIGNING_WINDOW } from './live-source.js'
import type { Probe, SnapshotRequest } from './snapshot-source.js'

/**
 * The diagnosis flags as a command hands them over (doctor and serve take all of them, from one definition in
 * commands/flag-spec.ts DIAGNOSIS_FLAGS; timeline the probes and rule settings, so the findings it places are doctor's).
 */
export interface DiagnosisFlags {
  rule?: string[]
  'skip-rule'?: string[]
  'no-probe'?: boolean
  /** Milliseconds, as every duration a command hands over (commands/flag-spec.ts flagValues). */
  'probe-window': number
  'signing-window'?: number
  'gate-timeout': number
  'missed-blocks-warning'?: number
  'missed-blocks-error'?: number
  /** [phase, milliseconds] pairs, per flag given. */
  'phase-timeout'?: [string, number][][]
}

/** Everything a run of the rules needs, as values: the rules, their settings, the probes, durations in milliseconds. */
export interface DiagnosisOptions {
  rules: readonly Rule[]
  settings: RuleSettings
  /** The container logs those rules read: a live run reads no others. */
  logRoles: ReadonlySet<LogRole>
  /** The signer probes after collection; none with --no-probe. */
  probe?: Probe
  /** The nodes' own RPC and node-utils; none with --no-probe. */
  chainProbe?: SnapshotRequest['chainProbe']
  gateTimeoutMs: number
  /** Whether the active probes run (serve writes chainnode_probe_success only then). */
  probed: boolean
}

/**
 * The one place doctor, serve and timeline turn their diagnosis flags into values, so no command can drift from
 * another (serve once left out doctor's missed-blocks thresholds). Every flag is checked, --no-probe or not.
 */
export function diagnosisOptions(flags: DiagnosisFlags): DiagnosisOptions {
  const rules = selectRules({ only: flags.rule, skip: flags['skip-rule'] })
  // Nothing checked is not health: an empty selection is an input error, not a clean report.
  if (rules.length === 0) throw usageError('--rule and --skip-rule leave no rule to check', 'drop a --skip-rule, or list the rules with: chainnode rules')
  const { probe, chainProbe, gateTimeoutMs } = activeProbes(flags)
  const settings: RuleSettings = {
    phaseTimeoutsMs: Object.fromEntries((flags['phase-timeout'] ?? []).flat()),
    missedBlocks: missedBlockThresholds(flags),
  }
  const probed = !flags['no-probe']
  return {
    rules,
    settings,
    logRoles: logRolesOf(rules),
    gateTimeoutMs,
    probed,
    ...(probe ? { probe, chainProbe } : {}),
  }
}

/**
 * The active probes a run asks for: the signer probes after collection and the chain probe (none with --no-probe;
 * their durations are checked either way). doctor, serve and timeline take them through diagnosisOptions; collect
 * takes them alone, so a bundle carries what doctor measures.
 */
export function activeProbes(flags: Pick<DiagnosisFlags, 'no-probe' | 'probe-window' | 'signing-window' | 'gate-timeout'>): {
  probe?: Probe
  chainProbe?: SnapshotRequest['chainProbe']
  gateTimeoutMs: number
} {
  const gateTimeoutMs = flags['gate-timeout']
  const chainProbe = chainProbeFor(flags)
  if (flags['no-probe']) return { gateTimeoutMs }
  return { probe: (connection, snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs }), chainProbe, gateTimeoutMs }
}

/** The chain probe a run asks for (none with --no-probe). */
export function chainProbeFor(input: { 'no-probe'?: boolean; 'probe-window': number; 'signing-window'?: number }): SnapshotRequest['chainProbe'] {
  const windowMs = input['probe-window']
  const signingWindow = input['signing-window'] ?? DEFAULT_SIGNING_WINDOW
  return input['no-probe'] ? undefined : { windowMs, timeoutMs: CHAIN_PROBE_TIMEOUT_MS, signingWindow }
}

/** --missed-blocks-warning and --missed-blocks-error, the warning no higher than the error. */
function missedBlockThresholds(flags: Pick<DiagnosisFlags, 'missed-blocks-warning' | 'missed-blocks-error'>): { warning: number; error: number } {
  const warning = flags['missed-blocks-warning'] ?? DEFAULT_MISSED_BLOCKS.warning
  const error = flags['missed-blocks-error'] ?? DEFAULT_MISSED_BLOCKS.error
  if (warning > error)
    throw usageError(`--missed-blocks-warning ${warning} is above --missed-blocks-error ${error}`, 'give a warning threshold at or below the error threshold')
  return { warning, error }
}
