import { ExitCode } from '../util/errors.js'
import { renderTimeline } from '../render/timeline.js'
import { tableWidth } from '../render/width.js'
import { diagnosisOptions } from '../app/diagnosis-options.js'
import { bound, timelines } from '../app/timeline.js'
import {
  defineCommand,
  GLOBAL_FLAGS,
  KUBE_FLAGS,
  NODE_ARG,
  SCOPE_FLAGS,
  SNAPSHOT_FLAGS,
  outputSpec,
  type FlagSpecs,
  type InputOf,
  UTC_FLAG,
} from './flag-spec.js'
import { PROBE_AND_RULE_SETTING_FLAGS } from './diagnosis-flags.js'
import type { Session } from './session.js'
import { outputFormatOf } from '../util/output.js'

/** timeline's own flags; the oclif command and the quick start both read them. */
export const TIMELINE_FLAGS = {
  ...SCOPE_FLAGS,
  ...SNAPSHOT_FLAGS,
  output: outputSpec(['text', 'json', 'markdown']),
  since: { type: 'string', description: 'start of the window: a duration before now (2h, 30m) or an RFC 3339 time' },
  until: { type: 'string', description: 'end of the window: a duration before now or an RFC 3339 time (default: now)' },
  ...UTC_FLAG,
  // The same active probes and rule settings as doctor's, so the findings placed on the timeline are doctor's.
  ...PROBE_AND_RULE_SETTING_FLAGS,
} satisfies FlagSpecs

export const TIMELINE_COMMAND = defineCommand({
  summary: 'What happened to a node, in one chronological list: Events, Pod lifecycle, config changes, operator and node logs, findings',
  description: `Reads what doctor reads (the same snapshot) and merges it by time; repeats are collapsed as (x3 over 5m). Offline, "now" is the bundle's collection time.

The default window starts a little before the last restart or the first finding, whichever is earlier.`,
  examples: [
    '<%= config.bin %> timeline fullnode-0 -n cosmos',
    '<%= config.bin %> timeline fullnode-0 --since 2h --utc',
    '<%= config.bin %> timeline --set cosmoshub -n cosmos -o markdown > incident.md',
    '<%= config.bin %> timeline stuck-0 --bundle examples/bundles/not-syncing.tgz -o json',
  ],
  args: NODE_ARG,
  flags: { ...GLOBAL_FLAGS, ...KUBE_FLAGS, ...TIMELINE_FLAGS },
})

export type TimelineInput = InputOf<typeof TIMELINE_COMMAND>

/** Read what doctor reads (probes included unless --no-probe), place everything on one time line, render; exit 3 when reads failed. */
export async function runTimeline(input: TimelineInput, session: Session): Promise<ExitCode> {
  const window = { since: bound(input.since, '--since'), until: bound(input.until, '--until') }
  const { rules, settings, probe, chainProbe, logRoles } = diagnosisOptions(input)
  // The same reads as doctor's: the logs its rules read, and its probes.
  const snapshots = await session.reader.snapshots(input, { probe, logRoles, chainProbe })
  const clusters = timelines(snapshots, rules, window, input.bundle, settings)
  session.output.print(renderTimeline(input.output, clusters, session.output.palette, Boolean(input.utc), tableWidth()), outputFormatOf(input.output))
  return clusters.some((c) => c.incomplete) ? ExitCode.Incomplete : ExitCode.Clean
}
