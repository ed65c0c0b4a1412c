import type { KubeObject } from '../snapshot/types.js'
import { lineSplitter, type KubeClient } from './kube-client.js'
import { parseJsonPruned } from '../util/json-depth.js'

/** One event of a watch, as the server streams it: a JSON object a line. */
export interface WatchEvent {
  type?: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR' | string
  object?: KubeObject & { code?: number }
}

/**
 * Follow a watch path until the server ends it or `signal` aborts, each line parsed (depth-bounded) into an event.
 * A line that is not JSON goes to `onBadLine`; without one, its error ends the watch.
 */
export function streamWatch(
  client: KubeClient,
  path: string,
  onEvent: (event: WatchEvent) => void,
  signal: AbortSignal,
  onBadLine?: (error: unknown) => void,
): Promise<void> {
  return client.stream(
    path,
    lineSplitter((line) => {
      if (!line.trim()) return
      let event: WatchEvent
      try {
        event = parseJsonPruned<WatchEvent>(line)
      } catch (error) {
        if (!onBadLine) throw error
        return onBadLine(error)
      }
      onEvent(event)
    }),
    signal,
  )
}

/** Watch one object by name (a field selector): its ADDED, MODIFIED and DELETED events from now on, no bookmarks. */
export function watchNamed(
  client: KubeClient,
  resource: 'pods' | 'configmaps',
  namespace: string,
  name: string,
  onEvent: (event: WatchEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const selector = `fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`
  return streamWatch(client, `/api/v1/namespaces/${namespace}/${resource}?watch=true&allowWatchBookmarks=false&${selector}`, onEvent, signal)
}
