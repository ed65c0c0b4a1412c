import { createWriteStream } from 'node:fs'
import http from 'node:http'
import { pipeline } from 'node:stream/promises'
import { UserError } from '../util/errors.js'
import { writeFileAtomic } from '../util/fs-atomic.js'
import { limitError, readLimits } from '../util/limits.js'
import { CaptureError, checkContent, PROFILE_KINDS, type ProfileKindName } from '../pprof/capture.js'
import { PROFILING_PORT } from '../snapshot/node-layout.js'
import type { Connection } from './connection.js'
import { openPortForward } from './port-forward.js'

export interface CaptureRequest {
  connection: Connection
  namespace: string
  pod: string
  kind: ProfileKindName
  seconds?: number
  localPort?: number
  file: string
  /** Go's ?debug=1 or ?debug=2 text form instead of protobuf. */
  textForm?: 1 | 2
  /** Pod port serving net/http/pprof: node-utils' 6666 unless told (a chain's rpc.pprof_laddr). */
  port?: number
  /** Who serves it, for messages: "node-utils" or "the chain process". */
  serverName?: string
}

/** Port-forward to 6666 (or `port`), stream the endpoint's body into `file` atomically, and check what came back. */
export async function captureProfile(request: CaptureRequest): Promise<{ bytes: number }> {
  const spec = PROFILE_KINDS[request.kind]
  const { connection } = request
  const limits = readLimits()
  const port = request.port ?? PROFILING_PORT
  const server = request.serverName ?? 'node-utils'
  const forward = await openPortForward(connection.client.server, connection.credentials, request.namespace, request.pod, port, request.localPort)
  try {
    const query = spec.timed ? `?seconds=${request.seconds}` : request.textForm ? `?debug=${request.textForm}` : ''
    const timeoutMs = ((spec.timed ? (request.seconds ?? 0) : 0) + 30) * 1000
    let bytes = 0
    await writeFileAtomic(request.file, async (tmp) => {
      const response = await get(forward.localPort, port, `${spec.path}${query}`, timeoutMs, forward.errors)
      if (response.statusCode !== 200) {
        const body = (await readSome(response)).split('\n')[0].trim()
        // Go's net/http/pprof allows one CPU profile and one trace at a time per process.
        if (/already (in use|enabled|running)/i.test(body))
          throw new CaptureError(`another ${request.kind} capture is running in ${server} (${body}); retry when it ends`, 'busy')
        throw new CaptureError(`${server} answered HTTP ${response.statusCode} for ${spec.path}: ${body}`, response.statusCode === 404 ? 'not-profile' : 'busy')
      }
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        // Refused as it streams: the partial file goes with the failed write.
        if (bytes > limits.profileBytes)
          response.destroy(limitError('profileBytes', limits, `the ${request.kind} from ${request.pod} (more than ${bytes} bytes)`))
      })
      try {
        await pipeline(response, createWriteStream(tmp))
      } catch (error) {
        if (error instanceof UserError) throw error
        throw new CaptureError(`the port-forward dropped during the capture: ${forward.errors[0] ?? (error as Error).message}`, 'dropped')
      }
      if (forward.errors.length) throw new CaptureError(`the port-forward failed during the capture: ${forward.errors[0]}`, 'dropped')
      await checkContent(tmp, request.textForm ? 'text' : spec.expect, bytes)
    })
    return { bytes }
  } finally {
    await forward.close()
  }
}

function get(localPort: number, podPort: number, path: string, timeoutMs: number, forwardErrors: string[]): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: localPort, path, agent: false }, resolve)
    req.setTimeout(timeoutMs, () => req.destroy(new CaptureError(`no answer from Pod port ${podPort} within ${timeoutMs / 1000}s`, 'unreachable')))
    req.on('error', (error) => {
      const why = forwardErrors[0] ?? error.message
      reject(error instanceof CaptureError ? error : new CaptureError(`nothing answers on Pod port ${podPort}: ${why}`, 'unreachable'))
    })
  })
}

function readSome(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = ''
    response.on('data', (chunk) => (text.length < 4096 ? (text += chunk) : undefined))
    response.on('end', () => resolve(text))
    response.on('error', () => resolve(text))
  })
}
