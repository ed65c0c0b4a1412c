import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { parseDuration } from '../duration.js'
import { usageError } from '../errors.js'
import { renderTimeline, type TimelineFormat } from '../render/timeline.js'
import { logRolesOf, selectRules } from '../services/doctor.js'
import { timelines } from '../services/timeline.js'
import type { Bound } from '../timeline/build.js'

export default class Timeline extends SnapshotCommand {
  static summary = 'What happened to a node, in one chronological list: Events, Pod lifecycle, config changes, operator and node logs, findings'
  static description = `Reads what doctor reads (the same snapshot) and merges it by time; repeats are collapsed as (x3 over 5m). Offline, "now" is the bundle's collection time.

The default window starts a little before the last restart or the first finding, whichever is earlier.`
  static examples = [
    '<%= config.bin %> timeline fullnode-0 -n cosmos',
    '<%= config.bin %> timeline fullnode-0 --since 2h --utc',
    '<%= config.bin %> timeline --set cosmoshub -n cosmos -o markdown > incident.md',
    '<%= config.bin %> timeline fullnode-0 --bundle incident.tgz -o json',
  ]
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json', 'markdown']),
    since: Flags.string({ description: 'start of the window: a duration before now (2h, 30m) or an RFC 3339 time' }),
    until: Flags.string({ description: 'end of the window: a duration before now or an RFC 3339 time (default: now)' }),
    utc: Flags.boolean({ description: 'print times in UTC instead of the local time zone' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Timeline)
    await this.setupOutput(flags)
    const window = { since: bound(flags.since, '--since'), until: bound(flags.until, '--until') }
    const rules = selectRules({})
    // The same reads as doctor's (its rules' logs), without the active signer probes.
    const snapshots = await this.session.snapshots({ ...flags, name: args.name }, false, undefined, undefined, logRolesOf(rules))
    const clusters = timelines(snapshots, rules, window, flags.bundle)
    this.print(renderTimeline(flags.output as TimelineFormat, clusters, this.palette, flags.utc))
    if (clusters.some((c) => c.incomplete)) process.exitCode = 3
  }
}

function bound(text: string | undefined, flag: string): Bound | undefined {
  if (text === undefined) return undefined
  if (/^\d{4}-\d\d-\d\dT/.test(text)) {
    if (Number.isNaN(Date.parse(text)))
      throw usageError(`${flag} "${text}" is not a time`, 'use an RFC 3339 time like 2026-11-22T13:00:00Z, or a duration like 2h')
    return { at: text }
  }
  return { ago: parseDuration(text, flag) }
}
