import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { usageError } from '../errors.js'
import { renderEventsTable } from '../render/events.js'
import { relatedEvents } from '../services/related-events.js'
import { SnapshotIndex } from '../snapshot/index.js'

export default class Events extends SnapshotCommand {
  static summary = 'Events about nodes and everything they own, newest last, repeats collapsed'
  static description = 'Sorted by series.lastObservedTime, then lastTimestamp, then eventTime, then creation time (events with null timestamps included).'
  static examples = [
    '<%= config.bin %> events fullnode-0 -n cosmos',
    '<%= config.bin %> events fullnode-0 --for pod/fullnode-0',
    '<%= config.bin %> events --all -o json',
  ]
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json']),
    for: Flags.string({ description: 'only events about this related object, as kind/name (e.g. pod/fullnode-0, pvc/fullnode-0)' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Events)
    await this.setupOutput(flags)
    if (flags.for && !/^[\w.-]+\/[\w.-]+$/.test(flags.for)) throw usageError(`--for "${flags.for}" is not kind/name`, 'e.g. --for pod/fullnode-0')
    const snapshots = await this.snapshots({ ...flags, name: args.name }, false, 'none')
    for (const snapshot of snapshots) {
      const index = new SnapshotIndex(snapshot)
      const events = relatedEvents(index, flags.for)
      if (flags.output === 'json') this.print(JSON.stringify({ schemaVersion: 1, kind: 'EventList', context: snapshot.source.context, events }, null, 2))
      else this.print(events.length ? renderEventsTable(events, Date.parse(snapshot.collectedAt), snapshot.scope.kind === 'all') : 'No events found.')
    }
    if (snapshots.some((s) => s.collectionErrors.length > 0)) process.exitCode = 3
  }
}
