import { open } from 'node:fs/promises'
import { sniffProfileKind } from './decode.js'

/** The net/http/pprof endpoints node-utils (spec §4.1) and a chain process serve: data, not code. */
export const PROFILE_KINDS = {
  heap: { path: '/debug/pprof/heap', timed: false, expect: 'pprof' },
  profile: { path: '/debug/pprof/profile', timed: true, expect: 'pprof' },
  trace: { path: '/debug/pprof/trace', timed: true, expect: 'go-trace' },
  goroutine: { path: '/debug/pprof/goroutine', timed: false, expect: 'pprof' },
  allocs: { path: '/debug/pprof/allocs', timed: false, expect: 'pprof' },
  block: { path: '/debug/pprof/block', timed: false, expect: 'pprof' },
  mutex: { path: '/debug/pprof/mutex', timed: false, expect: 'pprof' },
} as const
export type ProfileKindName = keyof typeof PROFILE_KINDS

/** Which process of a node's Pod to profile: the operator's sidecar, or the chain itself. */
export type ProfileTarget = 'node-utils' | 'chain'

/** Nothing answered on Pod port 6666, or it answered with something that is not a profile. */
export class CaptureError extends Error {
  constructor(
    message: string,
    /** unreachable: nothing answered; not-profile: something else answered; busy: another capture runs; dropped: the forward broke. */
    readonly kind: 'unreachable' | 'not-profile' | 'busy' | 'dropped',
  ) {
    super(message)
    this.name = 'CaptureError'
  }
}

export function defaultProfileName(namespace: string, pod: string, kind: ProfileKindName, now = new Date(), textForm?: number): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  return `${namespace}_${pod}_${kind}_${stamp}.${kind === 'trace' ? 'trace' : textForm ? `debug${textForm}.txt` : 'pb.gz'}`
}

/** Refuse a capture whose file is empty or is not what the endpoint should give. */
export async function checkContent(file: string, expect: 'pprof' | 'go-trace' | 'text', bytes: number): Promise<void> {
  if (bytes === 0) throw new CaptureError('the endpoint returned an empty body', 'not-profile')
  const handle = await open(file, 'r')
  const head = Buffer.alloc(64)
  await handle.read(head, 0, 64, 0)
  await handle.close()
  const kind = sniffProfileKind(head)
  const ok = expect === 'pprof' ? kind === 'pprof-gzip' || kind === 'pprof-raw' : expect === 'text' ? kind === 'text' : kind === 'go-trace'
  const wanted = { pprof: 'a gzipped pprof profile', 'go-trace': 'a Go execution trace', text: 'a text profile' }[expect]
  if (!ok) throw new CaptureError(`expected ${wanted} but got ${kind === 'html' ? 'an HTML page' : kind === 'text' ? 'text' : kind}`, 'not-profile')
}
