import type { ClusterTimelines } from '../timeline/types.js'

/** Version of the JSON output contract described by schema/timeline.schema.json. */
export const TIMELINE_SCHEMA_VERSION = 1

export const renderTimelineJson = (clusters: ClusterTimelines[]): string => JSON.stringify(timelineJson(clusters), null, 2)

export function timelineJson(clusters: ClusterTimelines[]): object {
  return {
    schemaVersion: TIMELINE_SCHEMA_VERSION,
    kind: 'Timeline',
    clusters: clusters.map((cluster) => ({
      context: cluster.context,
      server: cluster.server,
      ...(cluster.bundle ? { bundle: cluster.bundle } : {}),
      collectedAt: cluster.collectedAt,
      incomplete: cluster.incomplete,
      nodes: cluster.nodes.map((timeline) => ({
        namespace: timeline.node.namespace ?? null,
        name: timeline.node.name,
        now: timeline.now,
        window: timeline.window,
        outsideWindow: timeline.outsideWindow,
        entries: timeline.entries.map((e) => ({
          first: e.first,
          last: e.last,
          count: e.count,
          source: e.source,
          kind: e.kind,
          level: e.level,
          subject: { kind: e.subject.kind, namespace: e.subject.namespace ?? null, name: e.subject.name },
          text: e.text,
          ...(e.cutChars ? { cutChars: e.cutChars } : {}),
        })),
      })),
    })),
  }
}
