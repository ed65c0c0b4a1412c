import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, promises as fsp } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { usageError } from '../errors.js'
import { onInterrupt } from '../cleanup.js'
import { writeFileAtomic } from '../fs-atomic.js'
import { SNAPSHOT_FORMAT_VERSION, type KubeObject, type LogRecord, type Snapshot } from './types.js'

/**
 * Bundle layout (a directory, or the same tree inside a .tgz):
 *   manifest.json                         format version, time, context, CLI version, what was collected and what failed
 *   resources/<namespace|_cluster>/<Kind>.json   the objects as read, one JSON array per kind
 *   tables/chainnodes.json                the server's Table rows (kubectl get -o wide columns)
 *   logs/<namespace>/<pod>/<container>[.previous].log
 *   logs/index.json                       per log: truncated, error
 *   probes.json, errors.json, history.json (earlier observations of the nodes' config-hash and Pod)
 */
export const BUNDLE_KIND = 'chainnode-bundle'

export interface BundleManifest {
  kind: typeof BUNDLE_KIND
  formatVersion: number
  createdAt: string
  collectedAt: string
  cliVersion: string
  context: string
  server: string
  scope: Snapshot['scope']
  collected: { kinds: Record<string, number>; logs: number; chainNodes: string[] }
  failed: Snapshot['collectionErrors']
  redacted: boolean
  redactions: number
  stats: Snapshot['stats']
}

const logFile = (log: LogRecord) => path.join('logs', log.namespace, log.pod, `${log.container}${log.previous ? '.previous' : ''}.log`)

async function writeTree(dir: string, snapshot: Snapshot, redacted: boolean): Promise<void> {
  const groups = new Map<string, KubeObject[]>()
  for (const obj of snapshot.objects) {
    const key = path.join('resources', obj.metadata.namespace ?? '_cluster', `${obj.kind}.json`)
    groups.set(key, [...(groups.get(key) ?? []), obj])
  }
  const kinds: Record<string, number> = {}
  for (const obj of snapshot.objects) kinds[obj.kind] = (kinds[obj.kind] ?? 0) + 1
  const manifest: BundleManifest = {
    kind: BUNDLE_KIND,
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    collectedAt: snapshot.collectedAt,
    cliVersion: snapshot.cliVersion,
    context: snapshot.source.context,
    server: snapshot.source.server,
    scope: snapshot.scope,
    collected: { kinds, logs: snapshot.logs.length, chainNodes: snapshot.chainNodeRows.map((r) => `${r.namespace}/${r.name}`) },
    failed: snapshot.collectionErrors,
    redacted,
    redactions: snapshot.redactions,
    stats: snapshot.stats,
  }
  const files: [string, string][] = [
    ['manifest.json', json(manifest)],
    ['tables/chainnodes.json', json(snapshot.chainNodeRows)],
    ['probes.json', json(snapshot.probes)],
    ['errors.json', json(snapshot.collectionErrors)],
    ['history.json', json(snapshot.observations ?? [])],
    ['logs/index.json', json(snapshot.logs.map(({ text: _text, ...meta }) => ({ ...meta, file: logFile({ ...meta, text: '' }) })))],
    ...[...groups].map(([file, objects]): [string, string] => [file, json(objects)]),
    ...snapshot.logs.filter((log) => log.text).map((log): [string, string] => [logFile(log), log.text]),
  ]
  for (const [file, content] of files) {
    await fsp.mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await fsp.writeFile(path.join(dir, file), content)
  }
}

const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`

/** Write a bundle to a directory or a .tgz, atomically: a reader never sees a half-written bundle. */
export async function writeBundle(target: string, snapshot: Snapshot, redacted: boolean): Promise<void> {
  const stamp = snapshot.collectedAt.replace(/[:.]/g, '-')
  if (/\.(tgz|tar\.gz)$/.test(target)) {
    const staging = mkdtempSync(path.join(tmpdir(), 'chainnode-bundle-'))
    const release = onInterrupt(() => rmSync(staging, { recursive: true, force: true }))
    try {
      const top = `chainnode-bundle-${stamp}`
      await writeTree(path.join(staging, top), snapshot, redacted)
      const tar = await import('tar')
      await writeFileAtomic(target, async (tmp) => {
        await tar.create({ gzip: true, file: tmp, cwd: staging, portable: true }, [top])
      })
    } finally {
      release()
      rmSync(staging, { recursive: true, force: true })
    }
    return
  }
  if (existsSync(target) && readdirSync(target).length > 0) throw usageError(`${target} exists and is not empty`, 'give --out a new directory or a FILE.tgz')
  const tmp = `${target.replace(/\/$/, '')}.partial-${process.pid}`
  const release = onInterrupt(() => rmSync(tmp, { recursive: true, force: true }))
  try {
    await writeTree(tmp, snapshot, redacted)
    if (existsSync(target)) rmSync(target, { recursive: true })
    renameSync(tmp, target)
  } finally {
    release()
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** Read a bundle written by writeBundle (directory or .tgz) back into a snapshot. */
export async function readBundle(source: string, onProgress: (what: string) => void = () => undefined): Promise<Snapshot> {
  if (!existsSync(source)) throw usageError(`bundle ${source} does not exist`, 'pass a bundle written by chainnode collect')
  if (statSync(source).isDirectory()) return readTree(source, source, onProgress)
  const head = readFileSync(source).subarray(0, 2)
  if (head[0] !== 0x1f || head[1] !== 0x8b)
    throw usageError(`${source} is not a bundle (not a gzipped tar archive)`, 'pass a .tgz or directory written by chainnode collect')
  const staging = mkdtempSync(path.join(tmpdir(), 'chainnode-read-'))
  const release = onInterrupt(() => rmSync(staging, { recursive: true, force: true }))
  try {
    const tar = await import('tar')
    try {
      await tar.extract({
        file: source,
        cwd: staging,
        strict: true,
        // The top directory is the same for every entry: what is read is the rest of the path.
        onReadEntry: (entry) => onProgress(`extracting ${entry.path.split('/').slice(1).join('/')}`),
      })
    } catch (error) {
      throw usageError(`${source} is not a readable bundle: ${(error as Error).message}`, 'the archive is damaged or truncated; collect it again')
    }
    return readTree(staging, source, onProgress)
  } finally {
    release()
    rmSync(staging, { recursive: true, force: true })
  }
}

function readTree(root: string, source: string, onProgress: (what: string) => void): Snapshot {
  const top = existsSync(path.join(root, 'manifest.json'))
    ? root
    : readdirSync(root)
        .map((entry) => path.join(root, entry))
        .find((entry) => existsSync(path.join(entry, 'manifest.json')))
  if (!top) throw usageError(`${source} is not a chainnode bundle (no manifest.json)`, 'pass a bundle written by chainnode collect')
  const read = <T>(file: string, fallback: T): T => {
    const full = path.join(top, file)
    if (!existsSync(full)) return fallback
    try {
      return JSON.parse(readFileSync(full, 'utf8')) as T
    } catch {
      throw usageError(`${source}: ${file} is not valid JSON`, 'the bundle is damaged; collect it again')
    }
  }
  const manifest = read<BundleManifest | undefined>('manifest.json', undefined)
  if (manifest?.kind !== BUNDLE_KIND)
    throw usageError(`${source} is not a chainnode bundle (manifest kind is ${JSON.stringify(manifest?.kind)})`, 'pass a bundle written by chainnode collect')
  if (typeof manifest.formatVersion !== 'number' || manifest.formatVersion > SNAPSHOT_FORMAT_VERSION) {
    throw usageError(`bundle format ${manifest.formatVersion} is newer than this tool reads (${SNAPSHOT_FORMAT_VERSION})`, 'upgrade kubectl-chainnode')
  }
  const objects: KubeObject[] = []
  const resources = path.join(top, 'resources')
  for (const ns of existsSync(resources) ? readdirSync(resources) : []) {
    onProgress(`reading resources/${ns}`)
    for (const file of readdirSync(path.join(resources, ns))) objects.push(...read<KubeObject[]>(path.join('resources', ns, file), []))
  }
  onProgress('reading logs')
  const logs = read<(Omit<LogRecord, 'text'> & { file: string })[]>('logs/index.json', []).map(({ file, ...meta }) => {
    const full = path.join(top, file)
    return { ...meta, text: existsSync(full) ? readFileSync(full, 'utf8') : '' }
  })
  return {
    formatVersion: manifest.formatVersion,
    collectedAt: manifest.collectedAt,
    cliVersion: manifest.cliVersion,
    source: { context: manifest.context, server: manifest.server },
    scope: manifest.scope,
    objects,
    chainNodeRows: read('tables/chainnodes.json', []),
    logs,
    probes: read('probes.json', []),
    collectionErrors: read('errors.json', []),
    stats: manifest.stats,
    redactions: manifest.redactions,
    observations: read('history.json', []),
  }
}
