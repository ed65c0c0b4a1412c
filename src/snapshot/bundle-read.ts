import { closeSync, openSync, readSync, rmSync, statSync } from 'node:fs'
import path from 'node:path'
import { makeTempDir, onInterrupt, sweepStaleTempDirs } from '../cleanup.js'
import { UserError, errorMessage, usageError } from '../errors.js'
import { readLimits, type ReadLimits } from '../limits.js'
import { BundleFiles } from './bundle-files.js'
import { BUNDLE_KIND, SHAPES, type BundleManifest, type Shape } from './bundle-shape.js'
import { extractTarGz } from './tar-reader.js'
import { SNAPSHOT_FORMAT_VERSION, type KubeObject, type LogRecord, type Snapshot } from './types.js'

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
    return await readTree(staging, source, limits, onProgress)
  } finally {
    release()
    rmSync(staging, { recursive: true, force: true })
  }
}

async function readTree(root: string, source: string, limits: ReadLimits, onProgress: (what: string) => void): Promise<Snapshot> {
  // The manifest sits at the top, or one folder down (a .tgz holds chainnode-bundle-<time>/).
  const outer = new BundleFiles(root, source, limits)
  const inner = outer.isFile('manifest.json') ? undefined : outer.list('.').find((entry) => entry.folder && outer.isFile(`${entry.name}/manifest.json`))
  const files = inner ? new BundleFiles(path.join(root, inner.name), source, limits) : outer
  const parse = (file: string, text: string): unknown => {
    try {
      return JSON.parse(text)
    } catch {
      throw usageError(`${source}: ${file} is not valid JSON`, 'the bundle is damaged; collect it again')
    }
  }
  const check = <T>(file: string, shape: Shape, value: unknown): T => {
    const problem = shape(value, '')
    if (problem) throw usageError(`${source}: ${file} is not what a bundle holds: ${problem}`, 'the bundle is damaged or was not written by chainnode collect')
    return value as T
  }
  const read = async <T>(file: string, shape: Shape, fallback: T): Promise<T> => {
    // Between files, signals get their turn: Ctrl-C ends a long read at once.
    await new Promise((resolve) => setImmediate(resolve))
    const text = files.readText(file)
    return text === undefined ? fallback : check<T>(file, shape, parse(file, text))
  }
  const manifestText = files.readText('manifest.json')
  const manifest = manifestText === undefined ? undefined : (parse('manifest.json', manifestText) as Record<string, unknown> | null)
  if (manifest === undefined) throw usageError(`${source} is not a chainnode bundle (no manifest.json)`, 'pass a bundle written by chainnode collect')
  if (manifest === null || manifest?.kind !== BUNDLE_KIND)
    throw usageError(`${source} is not a chainnode bundle (manifest kind is ${JSON.stringify(manifest?.kind)})`, 'pass a bundle written by chainnode collect')
  const version = manifest.formatVersion
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw usageError(
      `${source}: manifest.json formatVersion is ${JSON.stringify(version)}, not a positive whole number`,
      'the bundle is damaged; collect it again',
    )
  if (version > SNAPSHOT_FORMAT_VERSION)
    throw usageError(`bundle format ${version} is newer than this tool reads (${SNAPSHOT_FORMAT_VERSION})`, 'upgrade kubectl-chainnode')
  const checked = check<BundleManifest>('manifest.json', SHAPES.manifest, manifest)
  const objects: KubeObject[] = []
  for (const ns of files.list('resources')) {
    onProgress(`reading resources/${ns.name}`)
    if (!ns.folder) continue
    onProgress(`reading resources/${ns.name}`)
    for (const file of files.list(`resources/${ns.name}`)) {
      if (file.folder || !file.name.endsWith('.json')) continue
      // One by one: a list of 300,000 objects would overflow the stack as spread arguments.
      for (const obj of await read<KubeObject[]>(`resources/${ns.name}/${file.name}`, SHAPES.resources, [])) objects.push(obj)
    }
  }
  onProgress('reading logs')
  const logs: LogRecord[] = []
  onProgress('reading logs')
  for (const { file, ...meta } of await read<(Omit<LogRecord, 'text'> & { file?: string })[]>('logs/index.json', SHAPES.logIndex, [])) {
    await new Promise((resolve) => setImmediate(resolve))
    logs.push({ ...meta, truncated: meta.truncated ?? false, text: file === undefined ? '' : (files.readText(file, 'logBytes') ?? '') })
  }
  return {
    formatVersion: version,
    collectedAt: checked.collectedAt,
    cliVersion: checked.cliVersion ?? 'unknown',
    source: { context: checked.context ?? 'unknown', server: checked.server ?? 'unknown' },
    scope: checked.scope,
    objects,
    chainNodeRows: await read('tables/chainnodes.json', SHAPES.tables, []),
    logs,
    probes: await read('probes.json', SHAPES.probes, []),
    collectionErrors: await read('errors.json', SHAPES.errors, []),
    stats: checked.stats ?? { requests: 0, durationMs: 0 },
    redactions: checked.redactions ?? 0,
    observations: await read('history.json', SHAPES.history, []),
  }
}
