import { tableWidth } from '../render/width.js'
import { exitCodeFor, FAIL_ON } from '../engine/exit-code.js'
import { usageError, type ExitCode } from '../util/errors.js'
import { DOCTOR_FORMATS } from '../render/doctor-formats.js'
import { diagnose } from '../app/doctor.js'
import { diagnosisOptions } from '../app/diagnosis-options.js'
import { leadUps } from '../app/timeline.js'
import {
  defineCommand,
  GLOBAL_FLAGS,
  KUBE_FLAGS,
  NODE_ARG,
  SCOPE_FLAGS,
  SNAPSHOT_FLAGS,
  UTC_FLAG,
  outputSpec,
  type FlagSpecs,
  type InputOf,
} from './flag-spec.js'
import { DIAGNOSIS_FLAGS } from './diagnosis-flags.js'
import type { Snapshot } from '../snapshot/types.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Session } from './session.js'
import { outputFormatOf } from '../util/output.js'
import { parseDuration } from '../util/duration.js'

/** doctor's own flags; the oclif command and the quick start both read them. */
export const DOCTOR_FLAGS = {
  ...SCOPE_FLAGS,
  ...SNAPSHOT_FLAGS,
  output: outputSpec(['text', 'json', 'markdown', 'junit']),
  'fail-on': { type: 'string', description: 'lowest severity that makes the exit code 1', options: FAIL_ON, default: 'error' },
  ...UTC_FLAG,
  timeout: {
    type: 'string',
    description: 'deadline of the whole run: what is not read by then is named, and the report is marked incomplete (exit 3) (0 = none)',
    default: '2m',
    parse: parseDuration,
  },
  ...DIAGNOSIS_FLAGS,
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

/** Read, diagnose, render, and say how it went as an exit code. */
export async function runDoctor(input: DoctorInput, session: Session): Promise<ExitCode> {
  const { rules, settings, probe, chainProbe, logRoles } = diagnosisOptions(input)
  const snapshots = await session.reader.snapshots(input, { probe, logRoles, chainProbe })
  const indexes = snapshots.map((snapshot) => new SnapshotIndex(snapshot))
  const result = diagnose(snapshots, rules, input.bundle, settings, indexes)
  if (result.clusters.every((c) => c.report.nodes.length === 0)) throw noNodesError(input, snapshots)
  const failOn = input['fail-on']
  const view = {
    palette: session.output.palette,
    failOn,
    version: session.version,
    debug: session.output.debugEnabled,
    width: tableWidth(),
    utc: Boolean(input.utc),
    ...(input.output === 'text' ? { leadUps: leadUps(indexes, result) } : {}),
  }
  session.output.print(DOCTOR_FORMATS[input.output](result, view), outputFormatOf(input.output))
  return exitCodeFor(result, failOn)
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
