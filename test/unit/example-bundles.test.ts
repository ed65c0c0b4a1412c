import { existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadBundle } from '../helpers/bundles.js'
import { ROOT } from '../helpers/cli.js'
import { bundleFiles, EXAMPLE_BUNDLES, exampleBundleNames, fixtureBundle } from '../helpers/fixtures.js'

// The tests read the bundles users run (examples/bundles/*.tgz) and no copy of them, so what the tests pass
// on is what a user's doctor --bundle reads: there is nothing to keep in sync.
describe('the tests read the shipped example bundles themselves', () => {
  it('keeps no unpacked copy of them under test/fixtures', () => {
    expect(existsSync(path.join(ROOT, 'test', 'fixtures', 'bundles'))).toBe(false)
    for (const name of exampleBundleNames()) expect(path.dirname(fixtureBundle(name))).toBe(EXAMPLE_BUNDLES)
  })

  it.each(exampleBundleNames())('%s: the snapshot a test loads holds the nodes and logs the archive lists', async (name) => {
    const files = bundleFiles(name)
    const manifest = JSON.parse(files.get('manifest.json')!) as { collectedAt: string; collected: { chainNodes: string[] } }
    const snapshot = await loadBundle(name)
    expect(snapshot.collectedAt).toBe(manifest.collectedAt)
    const nodes = snapshot.objects.filter((o) => o.kind === 'ChainNode').map((o) => `${o.metadata.namespace}/${o.metadata.name}`)
    expect(nodes.sort()).toEqual([...manifest.collected.chainNodes].sort())
    const logFiles = [...files.keys()].filter((file) => file.startsWith('logs/') && file !== 'logs/index.json')
    // A log the collector could not read is a record with no file, so the records are at least the files.
    expect(snapshot.logs.length).toBeGreaterThanOrEqual(logFiles.length)
    expect(logFiles.length).toBeGreaterThan(0)
  })

  it.each(exampleBundleNames())('%s: every object has the shape its kind declares, so none is left out', async (name) => {
    const files = bundleFiles(name)
    const inFiles = [...files.keys()]
      .filter((file) => file.startsWith('resources/') && file.endsWith('.json'))
      .reduce((sum, file) => sum + (JSON.parse(files.get(file)!) as unknown[]).length, 0)
    const snapshot = await loadBundle(name)
    expect(snapshot.collectionErrors.filter((e) => e.message.startsWith('left out'))).toEqual([])
    expect(snapshot.objects).toHaveLength(inFiles)
  })
})
