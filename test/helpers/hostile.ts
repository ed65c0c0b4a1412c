import { closeSync, createWriteStream, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs'
import path from 'node:path'
import { once } from 'node:events'
import { createGzip, gzipSync } from 'node:zlib'
import { SNAPSHOT_FORMAT_VERSION, type Snapshot } from '../../src/snapshot/types.js'

/** Files as an attacker would make them by hand: tar entries of any type, path and declared size. */
export interface TarEntry {
  name: string
  /** '0' file, '5' folder, '1' hard link, '2' symlink, '3'/'4' devices, '6' FIFO, 'x' PAX header. */
  type?: string
  content?: Buffer | string
  /** What the header says, whatever the content is. */
  size?: number
  linkname?: string
  /** Break the header checksum. */
  badChecksum?: boolean
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`
}

export function tarHeader(entry: TarEntry): Buffer {
  const content = Buffer.from(entry.content ?? '')
  const h = Buffer.alloc(512)
  h.write(entry.name.slice(0, 100), 0, 'utf8')
  h.write(octal(entry.type === '5' ? 0o755 : 0o644, 8), 100)
  h.write(octal(0, 8), 108)
  h.write(octal(0, 8), 116)
  h.write(octal(entry.size ?? content.length, 12), 124)
  h.write(octal(0, 12), 136)
  h.write(entry.type ?? '0', 156)
  if (entry.linkname) h.write(entry.linkname, 157)
  h.write('ustar\0', 257)
  h.write('00', 263)
  h.fill(0x20, 148, 156)
  let sum = 0
  for (const byte of h) sum += byte
  h.write(octal(sum + (entry.badChecksum ? 1 : 0), 7), 148)
  h[155] = 0x20
  return h
}

export function tarEntry(entry: TarEntry): Buffer {
  const content = Buffer.from(entry.content ?? '')
  const padding = (512 - (content.length % 512)) % 512
  return Buffer.concat([tarHeader(entry), content, Buffer.alloc(padding)])
}

/** A .tgz of these entries and the end-of-archive marker. */
export function tgz(entries: TarEntry[], end = true): Buffer {
  return gzipSync(Buffer.concat([...entries.map(tarEntry), end ? Buffer.alloc(1024) : Buffer.alloc(0)]), { level: 1 })
}

/** A gzip of `prefix` followed by `zeros` zero bytes, streamed to `file` (a bomb: kilobytes that unpack to gigabytes). */
export function gzipOfZeros(file: string, zeros: number, prefix: Buffer = Buffer.alloc(0)): Promise<void> {
  return gzipOfParts(file, [prefix, zeros])
}

/** A gzip of these parts in order, a number standing for that many zero bytes, streamed to `file`. */
export async function gzipOfParts(file: string, parts: (Buffer | number)[]): Promise<void> {
  const gzip = createGzip({ level: 9 })
  const out = createWriteStream(file)
  gzip.pipe(out)
  const chunk = Buffer.alloc(1 << 20)
  for (const part of parts) {
    if (typeof part !== 'number') {
      gzip.write(part)
      continue
    }
    for (let left = part; left > 0; left -= chunk.length) {
      if (!gzip.write(left >= chunk.length ? chunk : chunk.subarray(0, left))) await once(gzip, 'drain')
    }
  }
  gzip.end()
  await once(out, 'close')
}

/** The JSON files of a small valid bundle, by path (what writeBundle writes, minus the top folder). */
/** A bundle folder at `dir` holding `files` (bundle-relative names, as bundleFiles gives them); returns `dir`. */
export function writeBundleFolder(dir: string, files: Record<string, string>): string {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), content)
  }
  return dir
}

export function bundleFiles(snapshot: Snapshot = smallSnapshot()): Record<string, string> {
  const json = (value: unknown) => JSON.stringify(value)
  const files: Record<string, string> = {
    'manifest.json': json({
      kind: 'chainnode-bundle',
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      createdAt: snapshot.collectedAt,
      collectedAt: snapshot.collectedAt,
      cliVersion: snapshot.cliVersion,
      context: snapshot.source.context,
      server: snapshot.source.server,
      scope: snapshot.scope,
      collected: { kinds: {}, logs: snapshot.logs.length, chainNodes: [] },
      failed: [],
      redacted: true,
      redactions: 0,
      stats: snapshot.stats,
    }),
    'tables/chainnodes.json': json(snapshot.chainNodeRows),
    'probes.json': json(snapshot.probes),
    'errors.json': json(snapshot.collectionErrors),
    'history.json': json([]),
    'logs/index.json': json(
      snapshot.logs.map(({ text: _text, ...meta }) => ({
        ...meta,
        file: `logs/${meta.namespace}/${meta.pod}/${meta.container}${meta.previous ? '.previous' : ''}.log`,
      })),
    ),
  }
  const kinds = new Map<string, unknown[]>()
  for (const obj of snapshot.objects) {
    const key = `resources/${obj.metadata.namespace ?? '_cluster'}/${obj.kind}.json`
    kinds.set(key, [...(kinds.get(key) ?? []), obj])
  }
  for (const [key, list] of kinds) files[key] = json(list)
  for (const log of snapshot.logs) files[`logs/${log.namespace}/${log.pod}/${log.container}${log.previous ? '.previous' : ''}.log`] = log.text
  return files
}

export const ESCAPES = '\u001b[2J\u001b]0;pwned\u0007\u001b[31mFAKE RED\u001b[0m\u009b1m'

/** One node, its Pod with node-utils, an Event whose message carries terminal escape sequences, and a log. */
export function smallSnapshot(): Snapshot {
  const ns = 'ns'
  return {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    collectedAt: '2026-11-22T10:00:00.000Z',
    cliVersion: '0.0.0',
    source: { context: 'test', server: 'https://example.invalid' },
    scope: { kind: 'namespace', namespace: ns },
    objects: [
      {
        apiVersion: 'cosmopilot.voluzi.com/v1',
        kind: 'ChainNode',
        metadata: { name: 'node-0', namespace: ns, uid: 'u1', annotations: { note: `hello ${ESCAPES}` } },
        status: { phase: 'Running' },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: {
          name: 'node-0',
          namespace: ns,
          uid: 'p1',
          ownerReferences: [{ apiVersion: 'cosmopilot.voluzi.com/v1', kind: 'ChainNode', name: 'node-0', uid: 'u1' }],
        },
        spec: {
          containers: [
            { name: 'app', image: 'gaia:v1.0.0' },
            { name: 'node-utils', image: 'node-utils:v1.0.0' },
          ],
        },
        status: {
          phase: 'Running',
          containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { terminated: { exitCode: 1, message: `died ${ESCAPES}` } } }],
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: 'node-0.1', namespace: ns, creationTimestamp: '2026-11-22T09:59:00Z' },
        involvedObject: { kind: 'ChainNode', name: 'node-0', namespace: ns, uid: 'u1' },
        type: 'Warning',
        reason: 'Odd',
        message: `look ${ESCAPES} here`,
        lastTimestamp: '2026-11-22T09:59:00Z',
        count: 1,
      },
    ],
    chainNodeRows: [],
    // Every container's log, as collect keeps them: a bundle without one is incomplete (snapshot/left-out.ts).
    logs: [
      { namespace: ns, pod: 'node-0', container: 'node-utils', previous: false, truncated: false, text: 'line one\nline two\n' },
      { namespace: ns, pod: 'node-0', container: 'app', previous: false, truncated: false, text: 'started\n' },
    ],
    probes: [],
    collectionErrors: [],
    stats: { requests: 0, durationMs: 0 },
    redactions: 0,
  }
}

/** A list of `count` small Events about node-0's Pod, as JSON: rules and renderers go through each. */
export function manyEvents(count: number): string {
  const parts: string[] = []
  for (let i = 0; i < count; i++)
    parts.push(
      JSON.stringify({ kind: 'Event', metadata: { name: `e${i}`, namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'node-0', uid: 'p1' }, message: 'm' }),
    )
  return `[${parts.join(',')}]`
}

const varint = (value: number): number[] => {
  const out: number[] = []
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80)
  out.push(value)
  return out
}
const field = (key: number, body: number[]): number[] => [key, ...varint(body.length), ...body]

/**
 * A valid CPU profile (raw profile.proto) of about `bytes` bytes: 1,000 functions and as many locations,
 * then samples of 16 frames each, written in blocks, so a large one costs seconds to decode, not to make.
 */
export function writeLargeProfile(file: string, bytes: number): void {
  const functions = 1000
  const strings = ['', 'samples', 'count', 'cpu', 'nanoseconds', ...Array.from({ length: functions }, (_, i) => `main.f${i}`)]
  const head: number[] = [...field(0x0a, [0x08, 1, 0x10, 2]), ...field(0x0a, [0x08, 3, 0x10, 4])]
  for (let id = 1; id <= functions; id++) {
    head.push(...field(0x22, [0x08, ...varint(id), ...field(0x22, [0x08, ...varint(id), 0x10, 1])]))
    head.push(...field(0x2a, [0x08, ...varint(id), 0x10, ...varint(4 + id)]))
  }
  for (const text of strings) head.push(...field(0x32, [...Buffer.from(text)]))
  const block: number[] = []
  for (let s = 0; s < 1000; s++) {
    const ids = Array.from({ length: 16 }, (_, j) => varint(((s * 7 + j * 13) % functions) + 1)).flat()
    block.push(...field(0x12, [...field(0x0a, ids), ...field(0x12, [...varint(1 + (s % 5)), ...varint(10_000_000)])]))
  }
  const blockBuffer = Buffer.from(block)
  const fd = openSync(file, 'w')
  try {
    writeSync(fd, Buffer.from(head))
    for (let written = head.length; written + blockBuffer.length <= bytes; written += blockBuffer.length) writeSync(fd, blockBuffer)
  } finally {
    closeSync(fd)
  }
}
