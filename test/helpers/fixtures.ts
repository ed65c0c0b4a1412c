import { readdirSync } from 'node:fs'
import path from 'node:path'
import { list } from 'tar'
import { ROOT } from './cli.js'

/** The example bundles users run (examples/bundles/<name>.tgz); the tests read these very archives, not copies. */
export const EXAMPLE_BUNDLES = path.join(ROOT, 'examples', 'bundles')

/** The example bundle a test reads: the shipped archive itself (readBundle opens a .tgz as it opens a folder). */
export const fixtureBundle = (name: string) => path.join(EXAMPLE_BUNDLES, `${name}.tgz`)

export const exampleBundleNames = (): string[] =>
  readdirSync(EXAMPLE_BUNDLES)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => file.slice(0, -'.tgz'.length))
    .sort()

/** Every file of an example bundle, by its path inside the bundle (without the archive's top directory). */
export function bundleFiles(name: string): Map<string, string> {
  const files = new Map<string, string>()
  list({
    file: fixtureBundle(name),
    sync: true,
    onReadEntry: (entry) => {
      if (entry.type !== 'File') return entry.resume()
      const file = entry.path.split('/').slice(1).join('/')
      const chunks: Buffer[] = []
      entry.on('data', (chunk: Buffer) => chunks.push(chunk))
      entry.on('end', () => files.set(file, Buffer.concat(chunks).toString('utf8')))
    },
  })
  return files
}

/** One file of an example bundle as text, e.g. bundleFile('healthy', 'manifest.json'). */
export function bundleFile(name: string, file: string): string {
  const text = bundleFiles(name).get(file)
  if (text === undefined) throw new Error(`${file} is not in examples/bundles/${name}.tgz`)
  return text
}
