import { closeSync, openSync, readSync, statSync } from 'node:fs'
import path from 'node:path'
import { openNamelessTempFile, sweepStaleTempDirs } from '../util/cleanup.js'
import { UserError, errorMessage, usageError } from '../util/errors.js'
import { JsonTooDeepError, parseJsonBounded } from '../util/json-depth.js'
import { readLimits, type ReadLimits } from '../util/limits.js'
import { ArchiveFiles, FolderFiles, type BundleFiles } from './bundle-files.js'
import { BUNDLE_KIND, SHAPES, kindProblem, type BundleManifest } from './bundle-shape.js'
import type { Shape } from './shape.js'
import { unpackTarGz, type ArchiveIndex } from './tar-reader.js'
import { SNAPSHOT_FORMAT_VERSION, type KubeObject, type LogRecord, type Snapshot } from './types.js'

/** A manifest value in a message: a list or object by its kind only (JSON.stringify would recurse through any depth). */
const shownValue = (value: unknown): string =>
  value !== null && typeof value === 'object' ? (Array.isArray(value) ? 'a list' : 'an object') : String(JSON.stringify(value))

/** Read a bundle written by writeBundle (directory or .tgz) back into a snapshot, as a file from a stranger. */
export async function readBundle(source: string, limits: ReadLimits = readLimits(), onProgress: (what: string) => void = () => undefined): Promise<Snapshot> {
  const stats = statSync(source, { throwIfNoEntry: false })
  if (!stats) throw usageError(`bundle ${source} does not exist`, 'pass a bundle written by chainnode collect')
  if (stats.isDirectory()) return readTree(new FolderFiles(source, source, limits), source, onProgress)
  if (!stats.isFile()) throw usageError(`bundle ${source} is not a regular file or a folder`, 'pass a bundle written by chainnode collect')
  const head = Buffer.alloc(2)
  const input = openSync(source, 'r')
  readSync(input, head, 0, 2, 0)
  closeSync(input)
  if (head[0] !== 0x1f || head[1] !== 0x8b)
    throw usageError(`${source} is not a bundle (not a gzipped tar archive)`, 'pass a .tgz or directory written by chainnode collect')
  // Folders of older versions, and a file caught between its creation and its unlink, left by killed runs.
  sweepStaleTempDirs()
  // The archive unpacks into one file without a name: the kernel frees it on any way out, SIGKILL included,
  // so nothing needs undoing and Ctrl-C ends the read at once, even in the middle of parsing (src/util/cleanup.ts).
  const fd = openNamelessTempFile()
  try {
    let index: ArchiveIndex
    try {
      onProgress(`unpacking ${path.basename(source)}`)
      index = await unpackTarGz(source, fd, limits, source)
    } catch (error) {
      if (error instanceof UserError) throw error
      throw usageError(`${source} is not a readable bundle: ${errorMessage(error)}`, 'the archive is damaged or truncated; collect it again')
    }
    return await readTree(new ArchiveFiles(index, source, limits), source, onProgress)
  } finally {
    closeSync(fd)
  }
}

async function readTree(outer: BundleFiles, source: string, onProgress: (what: string) => void): Promise<Snapshot> {
  // The manifest sits at the top, or one folder down (a .tgz holds chainnode-bundle-<time>/).
  const inner = outer.isFile('manifest.json') ? undefined : outer.list('.').find((entry) => entry.folder && outer.isFile(`${entry.name}/manifest.json`))
  const files = inner ? outer.within(inner.name) : outer
  const parse = (file: string, text: string): unknown => {
    try {
      return parseJsonBounded(text)
    } catch (error) {
      if (error instanceof JsonTooDeepError)
        throw usageError(`${source}: ${file} holds values ${error.message}`, 'the bundle is damaged or was not written by chainnode collect')
      throw usageError(`${source}: ${file} is not valid JSON`, 'the bundle is damaged; collect it again')
    }
  }
  const check = <T>(file: string, shape: Shape, value: unknown): T => {
    const problem = shape(value, '')
    if (problem) throw usageError(`${source}: ${file} is not what a bundle holds: ${problem}`, 'the bundle is damaged or was not written by chainnode collect')
    return value as T
  }
  const read = async <T>(file: string, shape: Shape, fallback: T): Promise<T> => {
    // Between files the event loop turns (the spinner moves). Signals need no turn: nothing is to undo here.
    await new Promise((resolve) => setImmediate(resolve))
    const text = files.readText(file)
    if (text === undefined) return fallback
    // From here to the next file the work is synchronous: a large file holds the event loop for seconds.
    onProgress(`parsing ${file} (${text.length} characters)`)
    const value = check<T>(file, shape, parse(file, text))
    onProgress(`parsed ${file}${Array.isArray(value) ? ` (${value.length} items)` : ''}`)
    return value
  }
  const manifestText = files.readText('manifest.json')
  const manifest = manifestText === undefined ? undefined : (parse('manifest.json', manifestText) as Record<string, unknown> | null)
  if (manifest === undefined) throw usageError(`${source} is not a chainnode bundle (no manifest.json)`, 'pass a bundle written by chainnode collect')
  if (manifest === null || manifest?.kind !== BUNDLE_KIND)
    throw usageError(`${source} is not a chainnode bundle (manifest kind is ${shownValue(manifest?.kind)})`, 'pass a bundle written by chainnode collect')
  const version = manifest.formatVersion
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    throw usageError(`${source}: manifest.json formatVersion is ${shownValue(version)}, not a positive whole number`, 'the bundle is damaged; collect it again')
  if (version > SNAPSHOT_FORMAT_VERSION)
    throw usageError(`bundle format ${version} is newer than this tool reads (${SNAPSHOT_FORMAT_VERSION})`, 'upgrade kubectl-chainnode')
  const checked = check<BundleManifest>('manifest.json', SHAPES.manifest, manifest)
  const objects: KubeObject[] = []
  const misshapen: Snapshot['collectionErrors'] = []
  for (const ns of files.list('resources')) {
    if (!ns.folder) continue
    onProgress(`reading resources/${ns.name}`)
    for (const file of files.list(`resources/${ns.name}`)) {
      if (file.folder || !file.name.endsWith('.json')) continue
      const name = `resources/${ns.name}/${file.name}`
      // One by one: a list of 300,000 objects would overflow the stack as spread arguments.
      for (const obj of await read<KubeObject[]>(name, SHAPES.resources, [])) {
        // kubectl writes an unset creationTimestamp as null: in metadata null is "not given" (ObjectMeta's types say so).
        for (const [field, value] of Object.entries(obj.metadata)) if (value === null) Reflect.deleteProperty(obj.metadata, field)
        // An object its kind's view would misdescribe (a phase that is a number) is left out, and the report says so.
        const problem = kindProblem(obj)
        if (problem === undefined) objects.push(obj)
        else
          misshapen.push({
            what: `read ${obj.kind} ${obj.metadata.name} from ${name}`,
            namespace: obj.metadata.namespace,
            reason: 'error',
            message: `left out: ${problem}`,
          })
      }
    }
  }
  onProgress('reading logs')
  const logs: LogRecord[] = []
  // An optional field may be written as null (bundle-shape.ts lets it): null is "not given", like undefined.
  for (const { file, ...meta } of await read<(Omit<LogRecord, 'text'> & { file?: string | null })[]>('logs/index.json', SHAPES.logIndex, [])) {
    await new Promise((resolve) => setImmediate(resolve))
    logs.push({ ...meta, truncated: meta.truncated ?? false, text: file == null ? '' : (files.readText(file, 'logBytes') ?? '') })
  }
  const chainNodeRows = await read<Snapshot['chainNodeRows']>('tables/chainnodes.json', SHAPES.tables, [])
  const probes = await read<Snapshot['probes']>('probes.json', SHAPES.probes, [])
  const collectionErrors = await read<Snapshot['collectionErrors']>('errors.json', SHAPES.errors, [])
  const observations = await read<NonNullable<Snapshot['observations']>>('history.json', SHAPES.history, [])
  const keySearch = await read<Snapshot['keySearch']>('key-search.json', SHAPES.keySearch, undefined)
  // A context node its kind's view would misdescribe is left out, as any object of the bundle.
  if (keySearch) keySearch.nodes = keySearch.nodes.filter((node) => kindProblem(node) === undefined)
  onProgress(`read ${objects.length} objects and ${logs.length} logs`)
  return {
    formatVersion: version,
    collectedAt: checked.collectedAt,
    cliVersion: checked.cliVersion ?? 'unknown',
    source: { context: checked.context ?? 'unknown', server: checked.server ?? 'unknown' },
    scope: checked.scope,
    objects,
    chainNodeRows,
    logs,
    probes,
    collectionErrors: [...collectionErrors, ...misshapen],
    ...(checked.leftOut?.length ? { leftOut: checked.leftOut } : {}),
    stats: checked.stats ?? { requests: 0, durationMs: 0 },
    redactions: checked.redactions ?? 0,
    ...(checked.redactionsByFile ? { redactionsByFile: checked.redactionsByFile } : {}),
    observations,
    ...(keySearch ? { keySearch } : {}),
  }
}
