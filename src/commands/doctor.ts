import { tableWidth } from '../render/width.js'
import { exitCodeFor, FAIL_ON } from '../engine/exit-code.js'
import { usageError, type ExitCode } from '../util/errors.js'
import { parseDuration } from '../util/duration.js'
import { doctorJson } from '../render/doctor-json.js'
import { renderDoctorJunit } from '../render/doctor-junit.js'
import { renderDoctorMarkdown } from '../render/doctor-markdown.js'
import { renderDoctorText } from '../render/doctor-text.js'
import { STUCK_PHASES } from '../rules/phase-stuck.js'
import { DEFAULT_MISSED_BLOCKS } from '../rules/validator-missed-blocks.js'
import { diagnose, logRolesOf, selectRules } from '../app/doctor.js'
import { probeSigners } from '../app/signer-probes.js'
import { leadUps } from '../app/timeline.js'
import {
  defineCommand,
  GLOBAL_FLAGS,
  KUBE_FLAGS,
  NODE_ARG,
  PROBE_FLAGS,
  PROBE_WINDOW_FLAG,
  SCOPE_FLAGS,
  SNAPSHOT_FLAGS,
  UTC_FLAG,
  outputSpec,
  type FlagSpecs,
  type InputOf,
} from './flag-spec.js'
import type { Snapshot } from '../snapshot/types.js'
import { SnapshotIndex } from '../snapshot/index.js'
import { DEFAULT_LOG_SAMPLE } from '../snapshot/log-sample.js'
import type { Probe, Session } from '../app/session.js'
import { chainProbeFor } from '../app/snapshots.js'
import { outputFormatOf } from '../util/output.js'

/** doctor's own flags; the oclif command and the quick start both read them. */
export const DOCTOR_FLAGS = {
  ...SCOPE_FLAGS,
  ...SNAPSHOT_FLAGS,
  output: outputSpec(['text', 'json', 'markdown', 'junit']),
  'fail-on': { type: 'string', description: 'lowest severity that makes the exit code 1', options: FAIL_ON, default: 'error' },
  ...UTC_FLAG,
  rule: { type: 'string', description: 'run only this rule (repeatable)', multiple: true },
  'skip-rule': { type: 'string', description: 'skip this rule (repeatable)', multiple: true },
  'no-probe': PROBE_FLAGS['no-probe'],
  'log-sample': {
    type: 'integer',
    description:
      'read the logs of at most this many nodes of each group that look alike (same status, containers and Events); the others share their evidence (0: every node)',
    default: DEFAULT_LOG_SAMPLE,
    min: 0,
  },
  timeout: {
    type: 'string',
    description: 'deadline of the whole run: what is not read by then is named, and the report is marked incomplete (exit 3) (0 = none)',
    default: '2m',
  },
  ...PROBE_WINDOW_FLAG,
  'gate-timeout': PROBE_FLAGS['gate-timeout'],
  'missed-blocks-warning': {
    type: 'integer',
    description: 'validators: missed blocks in the signing window at which validator-missed-blocks warns',
    default: DEFAULT_MISSED_BLOCKS.warning,
    min: 1,
  },
  'missed-blocks-error': {
    type: 'integer',
    description: 'validators: missed blocks in the signing window at which validator-missed-blocks is an error',
    default: DEFAULT_MISSED_BLOCKS.error,
    min: 1,
  },
  'phase-timeout': {
    type: 'string',
    description: `how long a node may hold a phase before phase-stuck reports it, as PHASE=DURATION (repeatable; phases: ${STUCK_PHASES.join(', ')})`,
    multiple: true,
  },
} satisfies FlagSpecs

/** Everything doctor accepts on the command line, the inherited global and kube flags included. */
export const DOCTOR_COMMAND = defineCommand({
  summary: 'Run the whole diagnostic procedure and say what is wrong, why, and what to do',
  description: `Reads the ChainNode, its Pod, Events, logs, storage, signer and the operator in one pass, then matches every rule of the symptom catalogue (chainnode rules).

Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage or input error, 3 incomplete (unreachable, forbidden or timed-out reads).`,
  examples: [
    '<%= config.bin %> doctor fullnode-0 -n cosmos',
    '<%= config.bin %> doctor --set cosmoshub -n cosmos -o markdown',
    '<%= config.bin %> doctor -A --fail-on warning -o junit > doctor.xml',
    '<%= config.bin %> doctor --bundle examples/bundles/signer-discovery-timeout.tgz',
  ],
  args: NODE_ARG,
  flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...DOCTOR_FLAGS },
})

export type DoctorInput = InputOf<typeof DOCTOR_COMMAND>

/** The active probes doctor runs (timeline runs the same, so it reads what doctor reads): none with --no-probe. */
export function activeProbes(input: Pick<DoctorInput, 'no-probe' | 'gate-timeout' | 'probe-window' | 'signing-window'>): {
  probe?: Probe
  chainProbe?: { windowMs: number; timeoutMs: number }
} {
  const gateTimeoutMs = parseDuration(input['gate-timeout'], '--gate-timeout')
  const chainProbe = chainProbeFor(input)
  if (input['no-probe']) return {}
  return { probe: (connection, snapshot) => probeSigners(connection, snapshot, { gateTimeoutMs }), chainProbe }
}

/** Read, diagnose, render, and say how it went as an exit code. */
export async function runDoctor(input: DoctorInput, session: Session): Promise<ExitCode> {
  await session.setupOutput(input)
  const { probe, chainProbe } = activeProbes(input)
  const rules = selectRules({ only: input.rule, skip: input['skip-rule'] })
  // Nothing checked is not health: an empty selection is an input error, not a clean report.
  if (rules.length === 0) throw usageError('--rule and --skip-rule leave no rule to check', 'drop a --skip-rule, or list the rules with: chainnode rules')
  const settings = { phaseTimeoutsMs: parsePhaseTimeouts(input['phase-timeout'] ?? []), missedBlocks: missedBlockThresholds(input) }
  const snapshots = await session.snapshots(input, { probe, logRoles: logRolesOf(rules), chainProbe })
  const indexes = snapshots.map((snapshot) => new SnapshotIndex(snapshot))
  const result = diagnose(snapshots, rules, input.bundle, settings, indexes)
  if (result.clusters.every((c) => c.report.nodes.length === 0)) throw noNodesError(input, snapshots)
  const failOn = input['fail-on']
  const rendered = {
    text: () =>
      renderDoctorText(result, session.palette, {
        debug: session.debugEnabled,
        leadUps: leadUps(indexes, result),
        width: tableWidth(),
        utc: Boolean(input.utc),
      }),
    json: () => JSON.stringify(doctorJson(result, session.version), null, 2),
    markdown: () => renderDoctorMarkdown(result),
    junit: () => renderDoctorJunit(result, failOn),
  }[input.output]()
  session.print(rendered, outputFormatOf(input.output))
  return exitCodeFor(result, failOn)
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
function missedBlockThresholds(input: Pick<DoctorInput, 'missed-blocks-warning' | 'missed-blocks-error'>): { warning: number; error: number } {
  const warning = input['missed-blocks-warning']
  const error = input['missed-blocks-error']
  if (warning > error)
    throw usageError(`--missed-blocks-warning ${warning} is above --missed-blocks-error ${error}`, 'give a warning threshold at or below the error threshold')
  return { warning, error }
}

/** Like kubectl's "No resources found in NS namespace.", but an error: doctor's exit code 0 would claim health. */
function noNodesError(input: DoctorInput, snapshots: Snapshot[]) {
  const namespace = input.namespace ?? snapshots[0]?.scope.namespace
  const where = input.set
    ? `of ChainNodeSet "${input.set}"`
    : input.name
      ? `named "${input.name}"`
      : namespace && !input['all-namespaces']
        ? `in namespace ${namespace}`
        : 'in any namespace'
  const matching = input.selector ? ` matching -l ${input.selector}` : ''
  // A bundle whose ChainNodes were all left out (bundle-read.ts) says why, not that there are none.
  const leftOut = snapshots.flatMap((s) => s.collectionErrors).find((e) => e.what.startsWith('read ChainNode '))
  if (leftOut)
    return usageError(
      `no ChainNode to check ${where}${matching}: ${leftOut.what.slice('read '.length)} was ${leftOut.message}`,
      'the bundle was edited or damaged; collect it again',
    )
  return usageError(`no ChainNodes found ${where}${matching}: nothing to check`, 'list the nodes with: chainnode status -A')
}
