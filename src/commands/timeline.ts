import { parseDuration } from '../util/duration.js'
import { ExitCode, usageError } from '../util/errors.js'
import { renderTimeline } from '../render/timeline.js'
import { tableWidth } from '../render/width.js'
import { logRolesOf, selectRules } from '../app/doctor.js'
import { timelines } from '../app/timeline.js'
import type { Bound } from '../timeline/build.js'
import {
  defineCommand,
  GLOBAL_FLAGS,
  KUBE_FLAGS,
  NODE_ARG,
  PROBE_FLAGS,
  PROBE_WINDOW_FLAG,
  SCOPE_FLAGS,
  SNAPSHOT_FLAGS,
  outputSpec,
  type FlagSpecs,
  type InputOf,
  UTC_FLAG,
} from './flag-spec.js'
import { activeProbes } from './doctor.js'
import type { Session } from '../app/session.js'
import { outputFormatOf } from '../util/output.js'

/** timeline's own flags; the oclif command and the quick start both read them. */
export const TIMELINE_FLAGS = {
  ...SCOPE_FLAGS,
  ...SNAPSHOT_FLAGS,
  output: outputSpec(['text', 'json', 'markdown']),
  since: { type: 'string', description: 'start of the window: a duration before now (2h, 30m) or an RFC 3339 time' },
  until: { type: 'string', description: 'end of the window: a duration before now or an RFC 3339 time (default: now)' },
  ...UTC_FLAG,
  // The same active probes as doctor's, so the findings placed on the timeline are doctor's.
  'no-probe': PROBE_FLAGS['no-probe'],
  ...PROBE_WINDOW_FLAG,
  'gate-timeout': PROBE_FLAGS['gate-timeout'],
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
  await session.setupOutput(input)
  const window = { since: bound(input.since, '--since'), until: bound(input.until, '--until') }
  const rules = selectRules({})
  const { probe, chainProbe } = activeProbes(input)
  // The same reads as doctor's: the logs its rules read, and its probes.
  const snapshots = await session.snapshots(input, { probe, logRoles: logRolesOf(rules), chainProbe })
  const clusters = timelines(snapshots, rules, window, input.bundle)
  session.print(renderTimeline(input.output, clusters, session.palette, Boolean(input.utc), tableWidth()), outputFormatOf(input.output))
  return clusters.some((c) => c.incomplete) ? ExitCode.Incomplete : ExitCode.Clean
}

export function bound(text: string | undefined, flag: string): Bound | undefined {
  if (text === undefined) return undefined
  if (/^\d{4}-\d\d-\d\dT/.test(text)) {
    if (Number.isNaN(Date.parse(text)))
      throw usageError(`${flag} "${text}" is not a time`, 'use an RFC 3339 time like 2026-11-22T13:00:00Z, or a duration like 2h')
    return { at: text }
  }
  return { ago: parseDuration(text, flag) }
}
