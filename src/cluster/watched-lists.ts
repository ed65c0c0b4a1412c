import type { KubeObject } from '../snapshot/types.js'
import type { KubeClient } from './kube-client.js'
import { withoutManagedFields } from './lists.js'
import { streamWatch, type WatchEvent } from './watch-stream.js'

/** How long the server keeps one watch open before we reopen it from where it stopped (kubectl's reflectors: 5-10 min). */
const WATCH_SECONDS = 300
/**
 * Each watch holds a stream open: over HTTP/1.1 a socket of the client's 32, over HTTP/2 one of the server's
 * concurrent streams. Past this many (a scope of many namespaces), lists are listed every cycle as before.
 */
export const MAX_WATCHES = 24

/** One list kept current: its objects by namespace/name and the resourceVersion the watch has reached. */
interface Watched {
  items: Map<string, KubeObject>
  resourceVersion: string
  stop: AbortController
}

const keyOf = (obj: KubeObject) => `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`

/**
 * Lists kept current by watches, for a process that reads the same lists every cycle (serve). The first read of
 * a path lists it and opens a watch from the list's resourceVersion; later reads answer from what the watch has
 * applied, with no request. A watch the server ends is reopened from the last resourceVersion it reported; one it
 * refuses (410 Gone: that version is compacted away) or that fails is dropped, so the next read lists afresh.
 */
export class WatchedLists {
  private readonly watched = new Map<string, Watched>()
  private closed = false

  constructor(
    private readonly client: KubeClient,
    private readonly watchSeconds = WATCH_SECONDS,
    private readonly maxWatches = MAX_WATCHES,
  ) {}

  /** The list at `path` (a list path with its query, resourceVersion=0 included), as of the latest watch event. */
  async list(path: string): Promise<{ items?: KubeObject[] }> {
    const live = this.watched.get(path)
    // Sorted as the API server lists them (by namespace, then name), whatever order the events came in.
    if (live) return { items: [...live.items.keys()].sort().map((key) => live.items.get(key)!) }
    const list = await this.client.getJSON<{ metadata?: { resourceVersion?: string }; items?: KubeObject[] }>(path)
    const resourceVersion = list.metadata?.resourceVersion
    if (resourceVersion && !this.closed && this.watched.size < this.maxWatches) {
      const items = new Map((list.items ?? []).map((item) => [keyOf(item), withoutManagedFields(item)]))
      const watched: Watched = { items, resourceVersion, stop: new AbortController() }
      this.watched.set(path, watched)
      void this.follow(path, watched)
    }
    return list
  }

  /** How many lists are answered from watches now (a figure for serve's metrics and its bench). */
  get size(): number {
    return this.watched.size
  }

  close(): void {
    this.closed = true
    for (const watched of this.watched.values()) watched.stop.abort()
    this.watched.clear()
  }

  private async follow(path: string, watched: Watched): Promise<void> {
    let gone = false
    while (!this.closed && !gone && this.watched.get(path) === watched) {
      const query = `watch=1&allowWatchBookmarks=true&timeoutSeconds=${this.watchSeconds}&resourceVersion=${encodeURIComponent(watched.resourceVersion)}`
      const drop = () => {
        gone = true
        watched.stop.abort()
      }
      const onEvent = (event: WatchEvent) => {
        if (gone) return
        let applied = false
        try {
          applied = this.apply(watched, event)
        } catch {
          // Not a watch event: what this watch holds can no longer be trusted.
        }
        if (!applied) drop()
      }
      try {
        await streamWatch(this.client, path.replace(/resourceVersion=0/, query), onEvent, watched.stop.signal, () => {
          if (!gone) drop()
        })
      } catch {
        gone = true
      }
    }
    // Dropped: the next read lists the path again (and opens a new watch from that list).
    if (this.watched.get(path) === watched) this.watched.delete(path)
    watched.stop.abort()
  }

  /** Apply one watch event; false when the watch cannot go on (an ERROR event, 410 Gone among them). */
  private apply(watched: Watched, event: WatchEvent): boolean {
    const obj = event.object
    if (!obj || event.type === 'ERROR') return false
    const version = obj.metadata?.resourceVersion
    if (version) watched.resourceVersion = version
    if (event.type === 'ADDED' || event.type === 'MODIFIED') watched.items.set(keyOf(obj), withoutManagedFields(obj))
    else if (event.type === 'DELETED') watched.items.delete(keyOf(obj))
    return true
  }
}
