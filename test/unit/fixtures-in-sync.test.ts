import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { list } from 'tar'
import { describe, expect, it } from 'vitest'
import { EXAMPLE_BUNDLES, exampleBundleNames, fixtureBundle, FIXTURE_BUNDLES } from '../helpers/fixtures.js'

/** Every file of a .tgz, without its top directory, with its content. */
async function archiveFiles(file: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  const reads: Promise<void>[] = []
  await list({
    file,
    onReadEntry: (entry) => {
      if (entry.type !== 'File') return entry.resume()
      const name = entry.path.split('/').slice(1).join('/')
      const chunks: Buffer[] = []
      entry.on('data', (chunk: Buffer) => chunks.push(chunk))
      reads.push(new Promise((resolve) => entry.on('end', () => resolve(void files.set(name, Buffer.concat(chunks).toString('utf8'))))))
    },
  })
  await Promise.all(reads)
  return files
}

function directoryFiles(dir: string, prefix = ''): Map<string, string> {
  const files = new Map<string, string>()
  for (const entry of readdirSync(path.join(dir, prefix))) {
    const relative = prefix ? `${prefix}/${entry}` : entry
    if (statSync(path.join(dir, relative)).isDirectory()) for (const [name, text] of directoryFiles(dir, relative)) files.set(name, text)
    else files.set(relative, readFileSync(path.join(dir, relative), 'utf8'))
  }
  return files
}

describe('the text copies of the example bundles (test/fixtures/bundles) match the bundles (npm run fixtures:sync)', () => {
  it('has one copy per bundle and no other', () => {
    expect(readdirSync(FIXTURE_BUNDLES).sort()).toEqual(exampleBundleNames())
  })

  it.each(exampleBundleNames())('%s: same files, same content', async (name) => {
    const archive = await archiveFiles(path.join(EXAMPLE_BUNDLES, `${name}.tgz`))
    const copy = directoryFiles(fixtureBundle(name))
    expect([...copy.keys()].sort()).toEqual([...archive.keys()].sort())
    for (const [file, text] of archive) expect(copy.get(file), file).toBe(text)
  })
})
