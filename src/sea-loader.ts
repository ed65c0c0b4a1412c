/**
 * Main script of the single-file executable (CommonJS, as Node's single executable applications
 * want it). A plain doctor line runs the quick start from lib/quick.cjs with the code cache, as
 * bin/run.js does; everything else goes to lib/main.mjs (src/sea-main.ts) and oclif.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { reportFailure } from './cli/failure.js'
import { QUICK_COMMANDS } from './cli/quick-commands.js'
import { loadWithCodeCache } from './code-cache.js'
import { stateDir } from './state-dir.js'
import { reportIfAbandoned } from './cli/unfinished.js'

const lib = path.join(path.dirname(process.execPath), 'lib')
const argv = process.argv.slice(2)

async function main(): Promise<void> {
  if ((QUICK_COMMANDS as readonly string[]).includes(argv[0])) {
    const bundle = loadWithCodeCache<typeof import('./cli/quick.js')>(
      path.join(lib, 'quick.cjs'),
      stateDir(),
      {
        '@kubernetes/client-node': path.join(lib, 'client-node.cjs'),
      },
      argv[0],
    )
    const { version } = JSON.parse(readFileSync(path.join(lib, '..', 'package.json'), 'utf8')) as { version: string }
    if (await bundle.exports.runQuick(argv, version)) {
      bundle.save()
      process.stdout.write('', () => process.stderr.write('', () => process.exit()))
      return
    }
  }
  await import(pathToFileURL(path.join(lib, 'main.mjs')).href)
}

reportIfAbandoned(main()).catch((error: Error) => {
  process.exitCode = reportFailure(error, false)
})
