import { finished, type Readable } from 'node:stream'
import type { Credentials } from './auth.js'
import type { ReadFailure } from '../util/errors.js'
import { Transport, type Exchange } from './transport.js'
import { parseJsonPruned } from '../util/json-depth.js'
import { textAt } from '../util/json-path.js'

export class ApiError extends Error {
  constructor(
    readonly reason: ReadFailure,
    message: string,
    readonly status?: number,
    readonly path?: string,
    /** A 404's subject: the object asked for (a Status naming it) or the API itself (no such resource: a CRD not installed). */
    readonly missing?: 'object' | 'api',
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

/** An answer longer than its reader allowed: the read stopped there (a list across a big shared cluster). */
export class AnswerTooLarge extends ApiError {
  constructor(path: string, maxBytes: number) {
    super('error', `the answer is over ${(maxBytes / 1024 / 1024).toFixed(1)} MB: ${path}`, undefined, path)
  }
}

export interface ClientOptions {
  server: string
  credentials: Credentials
  timeoutMs: number
  /** When the whole run must end (epoch ms): reads still queued or in flight then fail as timed out. */
  deadlineAt?: number
  concurrency: number
  /** Called once per HTTP request sent, for --debug accounting. */
  onRequest?: (method: string, path: string) => void
  /** Called when an answer has been read whole (or cut at its byte cap), for --debug timings. */
  onResponse?: (path: string, status: number, elapsedMs: number, bytes: number) => void
}

/** Turn a stream of text chunks into whole lines; the last, unfinished line waits for the next chunk. */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  // The pieces of the unfinished line are joined once it ends: adding each chunk to a string and splitting it
  // again would copy a long line (a watch event of a large object) once per chunk, quadratic in its length.
  let pending: string[] = []
  return (chunk) => {
    let start = 0
    for (let end = chunk.indexOf('\n'); end !== -1; end = chunk.indexOf('\n', start)) {
      pending.push(chunk.slice(start, end))
      onLine(pending.join(''))
      pending = []
      start = end + 1
    }
    if (start < chunk.length) pending.push(chunk.slice(start))
  }
}

export interface TextResult {
  text: string
  truncated: boolean
}

const TLS_CODES = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|HOSTNAME_MISMATCH|altnames/i
const MAX_RETRIES_429 = 3
const MAX_RETRY_AFTER_MS = 10_000

/**
 * A small read-mostly client for the API server. We speak HTTP ourselves instead of loading
 * @kubernetes/client-node on every run: that library costs ~0.5 s to import, more than the
 * whole manual kubectl procedure this tool is meant to beat.
 */
export class KubeClient {
  requestCount = 0
  private readonly transport: Transport
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(private readonly options: ClientOptions) {
    this.transport = new Transport(new URL(options.server), options.credentials, options.concurrency)
  }

  get server(): string {
    return this.options.server
  }

  close(): void {
    this.transport.close()
  }

  /** The JSON answer of `path`; with maxBytes, a longer one is not read on (AnswerTooLarge). */
  async getJSON<T = unknown>(path: string, accept = 'application/json', maxBytes?: number): Promise<T> {
    const { text, truncated } = await this.request(path, { accept, maxBytes })
    if (truncated) throw new AnswerTooLarge(path, maxBytes!)
    try {
      return parseJsonPruned<T>(text)
    } catch {
      throw new ApiError('error', `the server answered ${path} with something that is not JSON`, undefined, path)
    }
  }

  /** Read a text body, stopping after maxBytes so a huge log never sits whole in memory. */
  getText(path: string, maxBytes: number): Promise<TextResult> {
    return this.request(path, { accept: '*/*', maxBytes })
  }

  /**
   * Follow a streaming body (logs with follow=true): no overall timeout, only the wait for the answer.
   * Resolves when the server ends the stream or `signal` aborts.
   */
  async stream(path: string, onChunk: (text: string) => void, signal: AbortSignal): Promise<void> {
    this.requestCount++
    this.options.onRequest?.('GET', path)
    const exchange = this.transport.send(path, this.headers('*/*'), signal)
    const deadline = this.deadline(exchange, `no answer within ${this.options.timeoutMs / 1000}s: ${path}`, path)
    try {
      const res = await deadline.race(exchange.response).finally(deadline.clear)
      if (res.status >= 300) throw statusError(res.status, (await readBody(res.body, 64 * 1024)).text, path)
      res.body.setEncoding('utf8')
      res.body.on('data', onChunk)
      // A followed log ends when the server ends or closes it; only a stream error is a failure.
      await new Promise<void>((resolve, reject) =>
        finished(res.body, { writable: false }, (error) => (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE' ? reject(error) : resolve())),
      )
    } catch (error) {
      if (!signal.aborted) throw toApiError(error, path)
    }
  }

  private headers(accept: string): Record<string, string> {
    return { ...this.options.credentials.headers, Accept: accept, 'User-Agent': 'kubectl-chainnode' }
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active++
    try {
      return await work()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }

  private async request(path: string, opts: { accept: string; maxBytes?: number }): Promise<TextResult> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.slot(() => this.once(path, opts))
      if ('retryAfterMs' in result) {
        if (attempt >= MAX_RETRIES_429) throw new ApiError('error', `the server kept answering 429 Too Many Requests for ${path}`, 429, path)
        await new Promise((resolve) => setTimeout(resolve, result.retryAfterMs))
        continue
      }
      return result
    }
  }

  private async once(path: string, opts: { accept: string; maxBytes?: number }): Promise<TextResult | { retryAfterMs: number }> {
    // Reads queued behind a slow server are not sent once the run is out of time: the report shows what was read.
    if (this.options.deadlineAt !== undefined && Date.now() >= this.options.deadlineAt)
      throw new ApiError('timeout', `not read: the run's deadline passed first (--timeout): ${path}`, undefined, path)
    this.requestCount++
    this.options.onRequest?.('GET', path)
    const sentAt = process.uptime()
    const exchange = this.transport.send(path, this.headers(opts.accept))
    const deadline = this.deadline(exchange, `request timed out after ${this.options.timeoutMs / 1000}s: ${path}`, path)
    try {
      const res = await deadline.race(exchange.response)
      if (res.status === 429) {
        res.body.resume()
        const seconds = Number(res.retryAfter)
        return { retryAfterMs: Math.min(Number.isFinite(seconds) ? seconds * 1000 : 1000, MAX_RETRY_AFTER_MS) }
      }
      const { text, truncated } = await deadline.race(readBody(res.body, res.status < 300 ? opts.maxBytes : 64 * 1024))
      this.options.onResponse?.(path, res.status, (process.uptime() - sentAt) * 1000, text.length)
      if (res.status >= 300) throw statusError(res.status, text, path)
      return { text, truncated }
    } catch (error) {
      throw toApiError(error, path)
    } finally {
      deadline.clear()
    }
  }

  /**
   * Ends an exchange that takes longer than the request timeout, and fails whatever waits on it even
   * when the stream has nothing left to report: a run must never wait on a read that cannot end.
   */
  private deadline(exchange: Exchange, message: string, path: string) {
    let expire!: (error: ApiError) => void
    const expired = new Promise<never>((_, reject) => (expire = reject))
    expired.catch(() => undefined)
    const { timeoutMs, deadlineAt } = this.options
    const runLeft = deadlineAt === undefined ? Infinity : Math.max(0, deadlineAt - Date.now())
    const runEndsFirst = runLeft < timeoutMs
    const timer = setTimeout(
      () => {
        const error = new ApiError('timeout', runEndsFirst ? `cut short by the run's deadline (--timeout): ${path}` : message, undefined, path)
        exchange.cancel(error)
        expire(error)
      },
      Math.min(timeoutMs, runLeft),
    )
    return { race: <T>(work: Promise<T>) => Promise.race([work, expired]), clear: () => clearTimeout(timer) }
  }
}

/** Read a whole body (or its first maxBytes); exported for its tests. */
export function readBody(res: Readable, maxBytes?: number): Promise<TextResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const text = () => Buffer.concat(chunks).toString('utf8')
    res.on('data', (chunk: Buffer) => {
      if (maxBytes !== undefined && size + chunk.length > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size))
        size = maxBytes
        // Settled before the stream is cut short, so the early close below changes nothing.
        resolve({ text: text(), truncated: true })
        res.destroy()
        return
      }
      chunks.push(chunk)
      size += chunk.length
    })
    // finished() also answers for a body that ended before these listeners were attached: an empty
    // HTTP/2 body can end and close in the same tick as its headers, before the caller resumes.
    finished(res, { writable: false }, (error) => (error ? reject(connectionError(error)) : resolve({ text: text(), truncated: false })))
  })
}

/** A body closed before its end means the connection went away under the read. */
function connectionError(error: NodeJS.ErrnoException): Error {
  if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') return error
  return Object.assign(new Error('the connection closed before the answer ended'), { code: 'ECONNRESET' })
}

function statusError(status: number, body: string, path: string): ApiError {
  let message = body.trim().split('\n')[0]
  let named = false
  try {
    const answer = JSON.parse(body) as unknown
    message = textAt(answer, 'message') ?? message
    named = textAt(answer, 'details', 'name') !== undefined
  } catch {
    // not a Status object: keep the first line of the body
  }
  const reason: ReadFailure = status === 401 ? 'unauthorized' : status === 403 ? 'forbidden' : status === 404 ? 'not-found' : 'error'
  return new ApiError(reason, message || `HTTP ${status}`, status, path, status === 404 ? (named ? 'object' : 'api') : undefined)
}

function toApiError(error: unknown, path: string): ApiError {
  if (error instanceof ApiError) return error
  const err = error as NodeJS.ErrnoException
  const code = err.code ?? ''
  if (TLS_CODES.test(code) || TLS_CODES.test(err.message ?? ''))
    return new ApiError('tls', `TLS failure talking to the API server: ${err.message}`, undefined, path)
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ECONNRESET', 'EAI_AGAIN', 'ENETUNREACH', 'EPIPE', 'ETIMEDOUT'].includes(code)) {
    return new ApiError('unreachable', `cannot reach the API server: ${err.message}`, undefined, path)
  }
  // An HTTP/2 session that ended under a read: the server went away or reset the connection.
  if (code.startsWith('ERR_HTTP2_')) return new ApiError('unreachable', `lost the connection to the API server: ${err.message}`, undefined, path)
  return new ApiError('error', err.message ?? String(error), undefined, path)
}
