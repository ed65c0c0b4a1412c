import type { KubeObject, LogRecord } from './types.js'

/** Where a bundle keeps an object: resources/<namespace|_cluster>/<Kind>.json (one JSON list per kind). */
export const resourceFile = (obj: Pick<KubeObject, 'kind' | 'metadata'>): string => `resources/${obj.metadata.namespace ?? '_cluster'}/${obj.kind}.json`

/** Where a bundle keeps a log: logs/<namespace>/<pod>/<container>[.previous].log. */
export const logFile = (log: Pick<LogRecord, 'namespace' | 'pod' | 'container' | 'previous'>): string =>
  `logs/${log.namespace}/${log.pod}/${log.container}${log.previous ? '.previous' : ''}.log`

/** Where a bundle keeps what the active probes said. */
export const PROBES_FILE = 'probes.json'

/** Where a bundle keeps the other nodes read to find a validator key's holders (double-sign-risk). */
export const KEY_SEARCH_FILE = 'key-search.json'
