import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

// Each load runs in a fresh process: within one process V8 reuses its in-memory compilation and
// would hide whether the cache file was used. The built module is what bin/run.js loads.
const codeCache = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/entry/code-cache.js')).href

function load(file: string, cacheDir: string): { fromCache: boolean; answer: number } {
  const script = `import { loadWithCodeCache } from ${JSON.stringify(codeCache)}
const loaded = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)})
process.stdout.write(JSON.stringify({ fromCache: loaded.fromCache, answer: loaded.exports.answer() }))
loaded.save()`
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }))
}

const bundle = (dir: string, answer: number) => {
  const file = path.join(dir, 'mod.cjs')
  writeFileSync(
    file,
    `const path = require('node:path')\nexports.answer = () => ${answer} + path.basename('/x').length - 1\n${'exports.f = () => [1, 2, 3].map((x) => x * 2)\n'.repeat(50)}`,
  )
  return file
}
const cacheFiles = (cacheDir: string) => readdirSync(path.join(cacheDir, 'v8'))

describe('code cache for the quick start bundle', () => {
  it('compiles once, then reuses the code from the cache', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'))
    const file = bundle(dir, 42)
    expect(load(file, path.join(dir, 'cache'))).toEqual({ fromCache: false, answer: 42 })
    expect(load(file, path.join(dir, 'cache'))).toEqual({ fromCache: true, answer: 42 })
    expect(cacheFiles(path.join(dir, 'cache'))).toHaveLength(1)
  })

  it('does not use a damaged cache, and replaces it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'))
    const file = bundle(dir, 7)
    const cache = path.join(dir, 'cache')
    load(file, cache)
    writeFileSync(path.join(cache, 'v8', cacheFiles(cache)[0]), 'not a code cache')
    expect(load(file, cache)).toEqual({ fromCache: false, answer: 7 })
    expect(load(file, cache)).toEqual({ fromCache: true, answer: 7 })
  })

  it('keeps one cache per bundle: a rebuilt bundle drops the old one', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'))
    const cache = path.join(dir, 'cache')
    load(bundle(dir, 1), cache)
    const before = cacheFiles(cache)
    expect(load(bundle(dir, 22), cache)).toEqual({ fromCache: false, answer: 22 })
    expect(cacheFiles(cache)).toHaveLength(1)
    expect(cacheFiles(cache)).not.toEqual(before)
  })

  it('loads a part the bundle requires on demand once, with a code cache of its own', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'))
    const cache = path.join(dir, 'cache')
    writeFileSync(path.join(dir, 'quick-part.cjs'), `exports.loads = (globalThis.partLoads = (globalThis.partLoads ?? 0) + 1)\nexports.twice = (x) => x * 2\n`)
    // Asked for twice, as two import() of it in a bundle become two require() calls.
    const file = path.join(dir, 'mod.cjs')
    writeFileSync(
      file,
      `exports.answer = () => { const a = require('./quick-part.cjs'), b = require('./quick-part.cjs'); return a === b && a.loads === 1 ? a.twice(21) : -1 }\n`,
    )
    expect(load(file, cache)).toEqual({ fromCache: false, answer: 42 })
    expect(cacheFiles(cache).sort()).toEqual([expect.stringMatching(/^mod\.cjs-/), expect.stringMatching(/^quick-part\.cjs-/)])
    const written = cacheFiles(cache).map((name) => statSync(path.join(cache, 'v8', name)).mtimeMs)
    // Both caches are read and neither is written again.
    expect(load(file, cache)).toEqual({ fromCache: true, answer: 42 })
    expect(cacheFiles(cache).map((name) => statSync(path.join(cache, 'v8', name)).mtimeMs)).toEqual(written)
  })

  it('runs without a cache when the cache directory cannot be written', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'code-cache-'))
    const blocker = path.join(dir, 'not-a-dir')
    writeFileSync(blocker, '')
    expect(load(bundle(dir, 3), blocker)).toEqual({ fromCache: false, answer: 3 })
    expect(load(bundle(dir, 3), blocker)).toEqual({ fromCache: false, answer: 3 })
  })
})
