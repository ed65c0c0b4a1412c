import type { LogRole } from '../snapshot/node-layout.js'
import type { CollectionError, LogRecord } from '../snapshot/types.js'
import { ApiError, type KubeClient } from './kube-client.js'

export interface LogOptions {
  tailLines: number
  sinceSeconds?: number
  maxBytes: number
  /** Applied to each log as it arrives (secret masking), while other reads are still under way. */
  mask?: (text: string, log: Omit<LogRequest, 'main'>) => string
  /** Only the logs of these roles (doctor: those its rules read); all logs when absent. */
  roles?: ReadonlySet<LogRole>
}

export interface LogRequest {
  namespace: string
  pod: string
  container: string
  previous: boolean
  main: boolean
}

/** Lines longer than this are cut: a single minified JSON line must not drown the evidence. */
export const MAX_LINE_CHARS = 4096

export function logPath(request: Omit<LogRequest, 'main'>, options: LogOptions): string {
  const query = new URLSearchParams({ container: request.container, timestamps: 'true' })
  // A negative tail means every line (kubectl's --tail -1): the server's default when tailLines is absent.
  if (options.tailLines >= 0) query.set('tailLines', String(options.tailLines))
  query.set('limitBytes', String(options.maxBytes))
  if (request.previous) query.set('previous', 'true')
  if (options.sinceSeconds) query.set('sinceSeconds', String(options.sinceSeconds))
  return `/api/v1/namespaces/${request.namespace}/pods/${request.pod}/log?${query}`
}

export async function collectLogs(client: KubeClient, requests: LogRequest[], options: LogOptions, errors: CollectionError[]): Promise<LogRecord[]> {
  return Promise.all(
    requests.map(async (request): Promise<LogRecord> => {
      const base = { namespace: request.namespace, pod: request.pod, container: request.container, previous: request.previous }
      try {
        const { text, truncated } = await client.getText(logPath(request, options), options.maxBytes)
        const clean = cleanLog(text)
        return { ...base, text: options.mask ? options.mask(clean, base) : clean, truncated }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error
        // A container that has not started or never restarted has no log to give: that is not a failure of the run.
        if (error.status === 400 || error.reason === 'not-found') return { ...base, text: '', truncated: false, error: error.message }
        errors.push({
          what: `logs of ${request.pod}/${request.container}${request.previous ? ' (previous)' : ''}`,
          namespace: request.namespace,
          reason: error.reason,
          message: error.message,
        })
        return { ...base, text: '', truncated: false, error: error.message }
      }
    }),
  )
}

/** Make arbitrary container output safe to print: no control characters, no megabyte lines. */
export function cleanLog(text: string): string {
  // Most logs are clean already: checking is cheaper than splitting and joining them again.
  if (!needsCleaning(text)) return text
  return text
    .split('\n')
    .map((line) => {
      // eslint-disable-next-line no-control-regex
      const clean = line.replace(/\r$/, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/g, '�')
      return clean.length > MAX_LINE_CHARS ? `${clean.slice(0, MAX_LINE_CHARS)}… [${clean.length - MAX_LINE_CHARS} more characters]` : clean
    })
    .join('\n')
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\ufffd]/

function needsCleaning(text: string): boolean {
  if (CONTROL.test(text)) return true
  for (let start = 0; start < text.length;) {
    const end = text.indexOf('\n', start)
    const stop = end === -1 ? text.length : end
    if (stop - start > MAX_LINE_CHARS) return true
    start = stop + 1
  }
  return false
}
