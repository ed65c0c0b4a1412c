import { closeSync, existsSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync, promises as fsp } from 'node:fs'
import path from 'node:path'
import { UserError, errorMessage, usageError } from '../errors.js'
import { makeTempDir, onInterrupt, sweepStaleTempDirs } from '../cleanup.js'
import { readLimits, type ReadLimits } from '../limits.js'
import { BundleFiles } from './bundle-files.js'
import { SHAPES, type Shape } from './bundle-shape.js'
import { extractTarGz } from './tar-reader.js'
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
    const group = groups.get(key)
    if (group) group.push(obj)
    else groups.set(key, [obj])
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
    sweepStaleTempDirs()
    const staging = makeTempDir('bundle')
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

/** Read a bundle written by writeBundle (directory or .tgz) back into a snapshot, as a file from a stranger. */
export async function readBundle(source: string, limits: ReadLimits = readLimits(), onProgress: (what: string) => void = () => undefined): Promise<Snapshot> {
  const stats = statSync(source, { throwIfNoEntry: false })
  if (!stats) throw usageError(`bundle ${source} does not exist`, 'pass a bundle written by chainnode collect')
  if (stats.isDirectory()) return readTree(source, source, limits, onProgress)
  if (!stats.isFile()) throw usageError(`bundle ${source} is not a regular file or a folder`, 'pass a bundle written by chainnode collect')
  const head = Buffer.alloc(2)
  const fd = openSync(source, 'r')
  readSync(fd, head, 0, 2, 0)
  closeSync(fd)
  if (head[0] !== 0x1f || head[1] !== 0x8b)
    throw usageError(`${source} is not a bundle (not a gzipped tar archive)`, 'pass a .tgz or directory written by chainnode collect')
  sweepStaleTempDirs()
  const staging = makeTempDir('read')
  const release = onInterrupt(() => rmSync(staging, { recursive: true, force: true }))
  try {
    try {
      onProgress(`unpacking ${path.basename(source)}`)
      await extractTarGz(source, staging, limits, source)
    } catch (error) {
      if (error instanceof UserError) throw error
      throw usageError(`${source} is not a readable bundle: ${errorMessage(error)}`, 'the archive is damaged or truncated; collect it again')
    }
    return readTree(staging, source, limits, onProgress)
  } finally {
    release()
    rmSync(staging, { recursive: true, force: true })
  }
}

function readTree(root: string, source: string, limits: ReadLimits, onProgress: (what: string) => void): Snapshot {
  // The manifest sits at the top, or one folder down (a .tgz holds chainnode-bundle-<time>/).
  const outer = new BundleFiles(root, source, limits)
  const inner = outer.isFile('manifest.json') ? undefined : outer.list('.').find((entry) => entry.folder && outer.isFile(`${entry.name}/manifest.json`))
  const files = inner ? new BundleFiles(path.join(root, inner.name), source, limits) : outer
  const read = <T>(file: string, shape: Shape | undefined, fallback: T): T => {
    const text = files.readText(file)
    if (text === undefined) return fallback
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      throw usageError(`${source}: ${file} is not valid JSON`, 'the bundle is damaged; collect it again')
    }
    const problem = shape?.(value, '')
    if (problem) throw usageError(`${source}: ${file} is not what a bundle holds: ${problem}`, 'the bundle is damaged or was not written by chainnode collect')
    return value as T
  }
  const manifest = read<Record<string, unknown> | undefined>('manifest.json', undefined, undefined)
  if (manifest === undefined) throw usageError(`${source} is not a chainnode bundle (no manifest.json)`, 'pass a bundle written by chainnode collect')
  if (manifest?.kind !== BUNDLE_KIND)
    throw usageError(`${source} is not a chainnode bundle (manifest kind is ${JSON.stringify(manifest?.kind)})`, 'pass a bundle written by chainnode collect')
  const version = manifest.formatVersion
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw usageError(
      `${source}: manifest.json formatVersion is ${JSON.stringify(version)}, not a positive whole number`,
      'the bundle is damaged; collect it again',
    )
  if (version > SNAPSHOT_FORMAT_VERSION)
    throw usageError(`bundle format ${version} is newer than this tool reads (${SNAPSHOT_FORMAT_VERSION})`, 'upgrade kubectl-chainnode')
  const checked = read<BundleManifest>('manifest.json', SHAPES.manifest, manifest as unknown as BundleManifest)
  const objects: KubeObject[] = []
  for (const ns of files.list('resources')) {
    if (!ns.folder) continue
    onProgress(`reading resources/${ns.name}`)
    for (const file of files.list(`resources/${ns.name}`)) {
      if (file.folder || !file.name.endsWith('.json')) continue
      // One by one: a list of 300,000 objects would overflow the stack as spread arguments.
      for (const obj of read<KubeObject[]>(`resources/${ns.name}/${file.name}`, SHAPES.resources, [])) objects.push(obj)
    }
  }
  onProgress('reading logs')
  const logs = read<(Omit<LogRecord, 'text'> & { file?: string })[]>('logs/index.json', SHAPES.logIndex, []).map(({ file, ...meta }) => ({
    ...meta,
    truncated: meta.truncated ?? false,
    text: file === undefined ? '' : (files.readText(file, 'logBytes') ?? ''),
  }))
  return {
    formatVersion: version,
    collectedAt: checked.collectedAt,
    cliVersion: checked.cliVersion ?? 'unknown',
    source: { context: checked.context ?? 'unknown', server: checked.server ?? 'unknown' },
    scope: checked.scope,
    objects,
    chainNodeRows: read('tables/chainnodes.json', SHAPES.tables, []),
    logs,
    probes: read('probes.json', SHAPES.probes, []),
    collectionErrors: read('errors.json', SHAPES.errors, []),
    stats: checked.stats ?? { requests: 0, durationMs: 0 },
    redactions: checked.redactions ?? 0,
    observations: read('history.json', SHAPES.history, []),
  }
}
