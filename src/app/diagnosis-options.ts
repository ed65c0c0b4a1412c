import type { Rule, RuleSettings } from '../engine/define-rule.js'
import { STUCK_PHASES } from '../rules/phase-stuck.js'
import { DEFAULT_MISSED_BLOCKS } from '../rules/validator-missed-blocks.js'
import { parseDuration } from '../util/duration.js'
import { usageError } from '../util/errors.js'
import type { LogRole } from '../snapshot/node-layout.js'
import { logRolesOf, selectRules } from './doctor.js'
import type { Probe } from './snapshot-source.js'
import { probeSigners } from './signer-probes.js'
import { CHAIN_PROBE_TIMEOUT_MS, DEFAULT_SIGNING_WINDOW, type SnapshotRequest } from './snapshots.js'

/**
 * The diagnosis flags as a command hands them over (doctor and serve take all of them, from one definition in
 * commands/flag-spec.ts DIAGNOSIS_FLAGS; timeline the probes and rule settings, so the findings it places are doctor's).
 */
export interface DiagnosisFlags {
  rule?: string[]
  'skip-rule'?: string[]
  'no-probe'?: boolean
  'probe-window': string
  'signing-window'?: number
  'gate-timeout': string
  'missed-blocks-warning'?: number
  'missed-blocks-error'?: number
  'phase-timeout'?: string[]
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
    phaseTimeoutsMs: parsePhaseTimeouts(flags['phase-timeout'] ?? []),
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
  const gateTimeoutMs = parseDuration(flags['gate-timeout'], '--gate-timeout')
  const chainProbe = chainProbeFor(flags)
  if (flags['no-probe']) return { gateTimeoutMs }
  return { probe: (connection, snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs }), chainProbe, gateTimeoutMs }
}

/** The chain probe a run asks for (none with --no-probe); --probe-window is checked either way. */
export function chainProbeFor(input: { 'no-probe'?: boolean; 'probe-window': string; 'signing-window'?: number }): SnapshotRequest['chainProbe'] {
  const windowMs = parseDuration(input['probe-window'], '--probe-window')
  const signingWindow = input['signing-window'] ?? DEFAULT_SIGNING_WINDOW
  return input['no-probe'] ? undefined : { windowMs, timeoutMs: CHAIN_PROBE_TIMEOUT_MS, signingWindow }
}

/** `--phase-timeout Starting=2h` (repeatable, or comma-separated) as milliseconds by phase. */
export function parsePhaseTimeouts(values: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const item of values.flatMap((v) => v.split(',')).filter((v) => v.trim())) {
    const [phase, duration] = item.split('=').map((part) => part.trim())
    if (!STUCK_PHASES.includes(phase) || !duration)
      throw usageError(`--phase-timeout "${item}" is not PHASE=DURATION`, `use one of ${STUCK_PHASES.join(', ')}, e.g. --phase-timeout InitializingData=2h`)
    out[phase] = parseDuration(duration, `--phase-timeout ${phase}`)
  }
  return out
}

/** --missed-blocks-warning and --missed-blocks-error, the warning no higher than the error. */
function missedBlockThresholds(flags: Pick<DiagnosisFlags, 'missed-blocks-warning' | 'missed-blocks-error'>): { warning: number; error: number } {
  const warning = flags['missed-blocks-warning'] ?? DEFAULT_MISSED_BLOCKS.warning
  const error = flags['missed-blocks-error'] ?? DEFAULT_MISSED_BLOCKS.error
  if (warning > error)
    throw usageError(`--missed-blocks-warning ${warning} is above --missed-blocks-error ${error}`, 'give a warning threshold at or below the error threshold')
  return { warning, error }
}
