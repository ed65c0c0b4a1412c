import { usageError, ExitCode } from '../util/errors.js'
import { renderEventsTable } from '../render/events.js'
import { structured } from '../render/structured.js'
import { relatedEvents } from '../analysis/related-events.js'
import { keyedRows, requireLive, watchRows } from '../app/watch.js'
import { SnapshotIndex } from '../snapshot/index.js'
import type { Snapshot } from '../snapshot/types.js'
import { bound } from '../app/timeline.js'
import { defineCommand, GLOBAL_FLAGS, KUBE_FLAGS, LISTING_FLAGS, NODE_ARG, outputSpec, SCOPE_FLAGS, SNAPSHOT_FLAGS, type InputOf } from './flag-spec.js'
import type { Session } from './session.js'
import { outputFormatOf } from '../util/output.js'
import { eventTime } from '../snapshot/events.js'
import type { KubeEvent } from '../snapshot/kinds.js'

export const EVENTS_COMMAND = defineCommand({
  summary: 'Events about nodes and everything they own, newest last, repeats collapsed',
  description:
    'Without NAME, --set or -A, the Events of every node in the namespace, as kubectl get events lists the namespace. Sorted by series.lastObservedTime, then lastTimestamp, then eventTime, then creation time (events with null timestamps included).',
  examples: [
    '<%= config.bin %> events fullnode-0 -n cosmos',
    '<%= config.bin %> events fullnode-0 --for pod/fullnode-0 -w',
    '<%= config.bin %> events -o json',
    '<%= config.bin %> events pull-0 --bundle examples/bundles/image-pull.tgz --for pod/pull-0',
    '<%= config.bin %> events --bundle examples/bundles/healthy.tgz -l nodeset=hub -o yaml',
  ],

  args: NODE_ARG,
  flags: {
    ...GLOBAL_FLAGS,
    ...KUBE_FLAGS,
    ...SCOPE_FLAGS,
    ...SNAPSHOT_FLAGS,
    output: outputSpec(['text', 'json', 'yaml']),
    for: { type: 'string', description: 'only events about this related object, as kind/name (e.g. pod/fullnode-0, pvc/fullnode-0)' },
    since: { type: 'string', description: 'only events last seen within this duration (5m, 2h) or after an RFC 3339 time' },
    ...LISTING_FLAGS,
  },
})

export async function runEvents(input: InputOf<typeof EVENTS_COMMAND>, session: Session): Promise<ExitCode> {
  if (input.for && !/^[\w.-]+\/[\w.-]+$/.test(input.for)) throw usageError(`--for "${input.for}" is not kind/name`, 'e.g. --for pod/fullnode-0')
  if (input.watch) requireLive(input.bundle)
  // The objects whose Events belong to a node (relatedObjects), and ConfigMaps for the history every read records.
  const objects = { kinds: ['Pod', 'Event', 'ConfigMap', 'PersistentVolumeClaim', 'VolumeSnapshot', 'ChainNodeSet'], operator: false }
  const read = () => session.reader.snapshots(input, { logs: 'none', objects, namespaceByDefault: true })
  const since = bound(input.since, '--since')
  // Like kubectl logs --since: an Event counts by when it was last seen (offline, before the bundle's collection).
  const recent = (snapshot: Snapshot) => (event: KubeEvent) => {
    if (!since) return true
    const cutoff = 'at' in since ? Date.parse(since.at) : Date.parse(snapshot.collectedAt) - since.ago
    return !(Date.parse(eventTime(event)) < cutoff)
  }
  const eventsOf = (snapshot: Snapshot) => relatedEvents(new SnapshotIndex(snapshot), input.for).filter(recent(snapshot))
  // Ages are counted to when the snapshot was taken: offline, that is when the bundle was collected.
  // Messages whole, as kubectl get events prints them: a long one wraps in the terminal.
  const table = (snapshot: Snapshot, noHeaders = input['no-headers']) =>
    renderEventsTable(eventsOf(snapshot), Date.parse(snapshot.collectedAt), snapshot.scope.kind === 'all', noHeaders)
  const snapshots = await read()
  for (const snapshot of snapshots) {
    const events = eventsOf(snapshot)
    if (input.output !== 'text')
      session.output.print(
        structured(input.output, { schemaVersion: 1, kind: 'EventList', context: snapshot.source.context, events }),
        outputFormatOf(input.output),
      )
    else session.output.print(events.length ? table(snapshot) : 'No events found.')
  }
  const code = snapshots.some((s) => s.collectionErrors.length > 0) ? ExitCode.Incomplete : ExitCode.Clean
  if (!input.watch) return code
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
    (line) => session.output.print(line),
  )
  return code
}
