import { existsSync, readdirSync, renameSync, rmSync, promises as fsp } from 'node:fs'
import path from 'node:path'
import { usageError } from '../util/errors.js'
import { makeTempDir, onInterrupt, sweepStaleTempDirs } from '../util/cleanup.js'
import { writeFileAtomic } from '../util/fs-atomic.js'
import { BUNDLE_KIND, type BundleManifest } from './bundle-shape.js'
import { KEY_SEARCH_FILE, logFile, PROBES_FILE, resourceFile } from './bundle-paths.js'
import { SNAPSHOT_FORMAT_VERSION, type KubeObject, type Snapshot } from './types.js'

/**
 * Bundle layout (a directory, or the same tree inside a .tgz):
 *   manifest.json                         format version, time, context, CLI version, what was collected, what failed and
 *                                         what was left out (leftOut: each log not carried, with the reason)
 *   resources/<namespace|_cluster>/<Kind>.json   the objects as read, one JSON array per kind
 *   tables/chainnodes.json                the server's Table rows (kubectl get -o wide columns)
 *   logs/<namespace>/<pod>/<container>[.previous].log
 *   logs/index.json                       per log: truncated, error
 *   probes.json, errors.json, history.json (earlier observations of the nodes' config-hash and Pod)
 *   key-search.json                       nodes outside the scope holding a validator key in scope (context, not diagnosed)
 */
export { BUNDLE_KIND, type BundleManifest } from './bundle-shape.js'
// Reading is its own module (a bundle is a file from a stranger there); callers import it from here.
export { readBundle } from './bundle-read.js'

async function writeTree(dir: string, snapshot: Snapshot, redacted: boolean): Promise<void> {
  const groups = new Map<string, KubeObject[]>()
  for (const obj of snapshot.objects) {
    const key = resourceFile(obj)
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
    leftOut: snapshot.leftOut ?? [],
    redacted,
    redactions: snapshot.redactions,
    ...(snapshot.redactionsByFile ? { redactionsByFile: snapshot.redactionsByFile } : {}),
    stats: snapshot.stats,
  }
  const files: [string, unknown][] = [
    ['manifest.json', manifest],
    ['tables/chainnodes.json', snapshot.chainNodeRows],
    [PROBES_FILE, snapshot.probes],
    ['errors.json', snapshot.collectionErrors],
    ['history.json', snapshot.observations ?? []],
    ...(snapshot.keySearch ? [[KEY_SEARCH_FILE, snapshot.keySearch] as [string, unknown]] : []),
    ['logs/index.json', snapshot.logs.map(({ text: _text, ...meta }) => ({ ...meta, file: logFile(meta) }))],
    ...groups,
  ]
  for (const [file, value] of files) {
    await fsp.mkdir(path.dirname(path.join(dir, file)), { recursive: true })
    await writeJson(path.join(dir, file), value)
  }
  for (const log of snapshot.logs.filter((log) => log.text)) {
    await fsp.mkdir(path.dirname(path.join(dir, logFile(log))), { recursive: true })
    await fsp.writeFile(path.join(dir, logFile(log)), log.text)
  }
}

/** Items of a list written at a time: between slices, Ctrl-C gets its turn (it removes the staging folder). */
const SLICE = 2000

/** What `JSON.stringify(value, null, 1)` writes, a list a slice at a time: 300,000 objects take seconds. */
async function writeJson(file: string, value: unknown): Promise<void> {
  const handle = await fsp.open(file, 'w')
  try {
    if (!Array.isArray(value) || value.length === 0) {
      await handle.write(`${JSON.stringify(value, null, 1)}\n`)
      return
    }
    for (let i = 0; i < value.length; i += SLICE) {
      const items = value.slice(i, i + SLICE).map((item: unknown) => ` ${(JSON.stringify(item, null, 1) ?? 'null').replace(/\n/g, '\n ')}`)
      await handle.write(`${i === 0 ? '[\n' : ',\n'}${items.join(',\n')}`)
    }
    await handle.write('\n]\n')
  } finally {
    await handle.close()
  }
}

/**
 * Write a bundle to a directory or a .tgz, atomically: a reader never sees a half-written bundle. The snapshot's leftOut
 * names what the bundle does not carry and why (manifest.json leftOut); a reader counts it as evidence it lacks.
 */
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
