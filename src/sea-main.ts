/**
 * Entry of the single-file executable after its loader (src/sea-loader.ts): everything (oclif included) is bundled into one ESM file that
 * shares its chunks with lib/commands.mjs, so oclif's explicit discovery finds the commands without a second oclif.
 * The executable's directory holds package.json and oclif.manifest.json, which oclif reads as its root.
 */
import { readFileSync } from 'node:fs'
import module from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { stateDir } from './state-dir.js'

// The executable's Node keeps the compiled code of ES modules between runs; a short run saves
// the parse and compile of every module it loads.
;(module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache?.(path.join(stateDir(), 'compile-cache'))

const root = path.dirname(process.execPath)
const argv = process.argv.slice(2)
const version = () => (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`kubectl-chainnode/${version()} ${process.platform}-${process.arch} node-${process.version}\n`)
} else if (argv[0] === '__complete') {
  const { complete } = await import('./completion/complete.js')
  process.stdout.write(`${await complete(argv.slice(1), path.join(root, 'oclif.manifest.json'))}\n`)
  process.stdout.write('', () => process.exit(0))
} else {
  // The quick start was tried by the executable's loader (src/sea-loader.ts); this line needs oclif.
  // @oclif/core is CommonJS: bundled and imported dynamically, its exports may sit under `default`.
  const oclif: typeof import('@oclif/core') & { default?: typeof import('@oclif/core') } = await import('@oclif/core')
  const execute = oclif.execute ?? oclif.default!.execute
  await execute({ dir: pathToFileURL(path.join(root, 'package.json')).href })
  // See bin/run.js: exit once the output is flushed.
  process.stdout.write('', () => process.stderr.write('', () => process.exit()))
}
