import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import vm from 'node:vm'

export interface CachedModule<T> {
  exports: T
  /** Whether compiled code from an earlier run was used. */
  fromCache: boolean
  /** Keep what this run compiled for the next one; call it after the work, when most functions have run. */
  save(): void
}

/**
 * Load a CommonJS bundle with V8's code cache, which Node 20 offers for vm.Script but not for
 * modules. Parsing and compiling the quick start's bundle is a fifth of a short run; the cache,
 * written after a run so it holds every function that run compiled, takes most of that away.
 * A cache that does not fit (another Node, another bundle) is rejected by V8 and written anew;
 * a cache directory that cannot be written only costs the speed-up.
 * Each command has its own bundle, so its own cache: a cache is written once, by the first run, and holds only
 * the functions that run compiled. A part of a bundle only some runs need (scripts/bundle.mjs PARTS) is a file
 * beside it that the bundle requires as './quick-<part>.cjs' when it needs it: loaded the same way, once, with
 * a cache of its own that save() writes too.
 */
export function loadWithCodeCache<T>(file: string, cacheDir: string, aliases: Record<string, string> = {}): CachedModule<T> {
  const source = readFileSync(file, 'utf8')
  const { size, mtimeMs } = statSync(file)
  const build = `${process.version}-${process.arch}-${size}-${Math.floor(mtimeMs)}`
  const cacheFile = path.join(cacheDir, 'v8', `${path.basename(file)}-${build}.bin`)
  let cachedData: Buffer | undefined
  try {
    cachedData = readFileSync(cacheFile)
  } catch {
    // first run with this bundle and this Node
  }
  const wrapper = `(function (exports, require, module, __filename, __dirname) {${source}\n})`
  // The bundle must not use import(): restored from the cache, it would find no loader (see scripts/bundle.mjs).
  const script = new vm.Script(wrapper, { filename: file, cachedData })
  const fromCache = cachedData !== undefined && !script.cachedDataRejected
  const module = { exports: {} as T }
  const requireFrom = createRequire(file)
  // Node's own modules straight from the runtime: the CommonJS resolver costs a few ms of a short run for the
  // dozen the bundle's top level asks for. The single-file executable has no node_modules: a package the
  // bundle leaves out is a file beside it.
  const parts = new Map<string, CachedModule<unknown>>()
  const require = (id: string): unknown => {
    if (!id.startsWith('./quick-')) return process.getBuiltinModule(id) ?? requireFrom(aliases[id] ?? id)
    let part = parts.get(id)
    if (!part) parts.set(id, (part = loadWithCodeCache(path.join(path.dirname(file), id), cacheDir, aliases)))
    return part.exports
  }
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file))
  return {
    exports: module.exports,
    fromCache,
    save() {
      for (const part of parts.values()) part.save()
      if (fromCache) return
      const tmp = `${cacheFile}.${process.pid}.partial`
      try {
        mkdirSync(path.dirname(cacheFile), { recursive: true })
        writeFileSync(tmp, script.createCachedData())
        renameSync(tmp, cacheFile)
        // Caches of earlier builds or Node versions are never read again; other commands' caches of this build are.
        const prefix = `${path.basename(file)}-`
        for (const old of readdirSync(path.dirname(cacheFile))) {
          if (old.startsWith(prefix) && !old.startsWith(`${prefix}${build}`) && old.endsWith('.bin'))
            rmSync(path.join(path.dirname(cacheFile), old), { force: true })
        }
      } catch {
        try {
          rmSync(tmp, { force: true })
        } catch {
          // the directory itself is not usable: nothing was written
        }
      }
    },
  }
}
