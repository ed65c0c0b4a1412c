import { STUCK_PHASES } from '../analysis/phase-since.js'
import { DEFAULT_MISSED_BLOCKS } from '../rules/validator-missed-blocks.js'
import { parseDuration } from '../util/duration.js'
import { usageError } from '../util/errors.js'
import { PROBE_FLAGS, PROBE_WINDOW_FLAG, type FlagSpecs } from './flag-spec.js'

/** One `--phase-timeout Starting=2h` (or a comma-separated list of them) as [phase, milliseconds] pairs. */
export function phaseTimeouts(value: string): [string, number][] {
  return value
    .split(',')
    .filter((item) => item.trim())
    .map((item) => {
      const [phase, duration] = item.split('=').map((part) => part.trim())
      if (!STUCK_PHASES.includes(phase) || !duration)
        throw usageError(`--phase-timeout "${item}" is not PHASE=DURATION`, `use one of ${STUCK_PHASES.join(', ')}, e.g. --phase-timeout InitializingData=2h`)
      return [phase, parseDuration(duration, `--phase-timeout ${phase}`)]
    })
}

/** The probes and the rules' settings: what decides which findings a run places (timeline takes these too). */
export const PROBE_AND_RULE_SETTING_FLAGS = {
  'no-probe': PROBE_FLAGS['no-probe'],
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
    parse: phaseTimeouts,
  },
} satisfies FlagSpecs

/**
 * Every flag that decides what a diagnosis finds, defined once: doctor and serve both take all of them, and
 * app/diagnosis-options.ts turns them into values for both (a test fails when serve lacks one of doctor's).
 */
/** How many look-alike nodes have their logs read when doctor is not told otherwise (cluster/log-sample.ts). */
const DEFAULT_LOG_SAMPLE = 3

export const DIAGNOSIS_FLAGS = {
  rule: { type: 'string', description: 'run only this rule (repeatable)', multiple: true },
  'skip-rule': { type: 'string', description: 'skip this rule (repeatable)', multiple: true },
  'log-sample': {
    type: 'integer',
    description:
      'read the logs of at most this many nodes of each group that look alike (same status, containers and Events); the others share their evidence (0: every node)',
    default: DEFAULT_LOG_SAMPLE,
    min: 0,
  },
  ...PROBE_AND_RULE_SETTING_FLAGS,
} satisfies FlagSpecs
