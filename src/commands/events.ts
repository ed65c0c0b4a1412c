import { Args, Flags } from '@oclif/core'
import { outputFlag } from '../base/command.js'
import { scopeFlags, SnapshotCommand } from '../base/snapshot-command.js'
import { usageError } from '../errors.js'
import { renderEventsTable } from '../render/events.js'
import { structured } from '../render/structured.js'
import { fitWidth, tableWidth } from '../render/width.js'
import { relatedEvents } from '../services/related-events.js'
import { keyedRows, requireLive, watchRows } from '../services/watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'

export default class Events extends SnapshotCommand {
  static summary = 'Events about nodes and everything they own, newest last, repeats collapsed'
  static description = 'Sorted by series.lastObservedTime, then lastTimestamp, then eventTime, then creation time (events with null timestamps included).'
  static examples = [
    '<%= config.bin %> events fullnode-0 -n cosmos',
    '<%= config.bin %> events fullnode-0 --for pod/fullnode-0 -w',
    '<%= config.bin %> events --all -o json',
    '<%= config.bin %> events pull-0 --bundle examples/bundles/image-pull.tgz --for pod/pull-0',
    '<%= config.bin %> events --bundle examples/bundles/healthy.tgz -l nodeset=hub -o yaml',
  ]
  static args = { name: Args.string({ description: 'ChainNode name' }) }
  static flags = {
    ...scopeFlags,
    ...SnapshotCommand.snapshotFlags,
    output: outputFlag(['text', 'json', 'yaml']),
    for: Flags.string({ description: 'only events about this related object, as kind/name (e.g. pod/fullnode-0, pvc/fullnode-0)' }),
    'no-headers': Flags.boolean({ description: 'print no header line' }),
    watch: Flags.boolean({ char: 'w', description: 'after the listing, print each new or repeated Event (live only; polls every 2s)' }),
  }

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Events)
    await this.setupOutput(flags)
    if (flags.for && !/^[\w.-]+\/[\w.-]+$/.test(flags.for)) throw usageError(`--for "${flags.for}" is not kind/name`, 'e.g. --for pod/fullnode-0')
    if (flags.watch) requireLive(flags.bundle)
    const read = () => this.snapshots({ ...flags, name: args.name }, false, 'none')
    const eventsOf = (snapshot: Snapshot) => relatedEvents(new SnapshotIndex(snapshot), flags.for)
    // Ages are counted to when the snapshot was taken: offline, that is when the bundle was collected.
    const table = (snapshot: Snapshot, noHeaders = flags['no-headers']) =>
      fitWidth(renderEventsTable(eventsOf(snapshot), Date.parse(snapshot.collectedAt), snapshot.scope.kind === 'all', noHeaders), tableWidth())
    const snapshots = await read()
    for (const snapshot of snapshots) {
      const events = eventsOf(snapshot)
      if (flags.output !== 'text')
        this.print(structured(flags.output as 'json', { schemaVersion: 1, kind: 'EventList', context: snapshot.source.context, events }))
      else this.print(events.length ? table(snapshot) : 'No events found.')
    }
    if (snapshots.some((s) => s.collectionErrors.length > 0)) process.exitCode = 3
    if (!flags.watch) return
    const keyed = (round: Snapshot[]) =>
      new Map(
        round.flatMap((snapshot) => {
          // An Event repeated is the same object with a new count: its resourceVersion changes, its age only ticks.
          const keys = eventsOf(snapshot).map((e) => ({
            key: `${snapshot.source.context}/${e.metadata.namespace}/${e.metadata.uid ?? e.metadata.name}`,
            version: e.metadata.resourceVersion ?? `${e.count}/${e.lastTimestamp}`,
          }))
          return [...keyedRows(keys, table(snapshot, true))]
        }),
      )
    await watchRows(
      async () => keyed(await read()),
      keyed(snapshots),
      (line) => this.print(line),
    )
  }
}
