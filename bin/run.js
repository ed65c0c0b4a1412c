#!/usr/bin/env node
// Shared entry of both executables. `--version` and shell completion are answered before oclif loads:
// CI smoke checks, kubectl plugin listings and every <TAB> call them, and loading the framework costs
// more than kubectl's whole run. For the same reason doctor starts without oclif when its command
// line is plain (dist/bundle/quick.cjs, from src/cli/quick.ts); help and odd lines go to oclif.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const packageVersion = () => JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const version = packageVersion()
  process.stdout.write(`kubectl-chainnode/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else if (argv[0] === '__complete') {
  try {
    const { complete } = await import('../dist/completion/complete.js')
    process.stdout.write(`${await complete(argv.slice(1), new URL('../oclif.manifest.json', import.meta.url))}\n`)
  } catch {
    // Never print an error into a user's shell.
    process.stdout.write(':4\n')
  }
  // A hung API server may still hold a half-open socket: a <TAB> must not wait for it.
  process.exitCode = 0
  exitWhenFlushed()
} else {
  const start = await import('../dist/bundle/start.js')
  const quick = start.QUICK_COMMANDS.includes(argv[0]) && (await runQuick(start))
  if (!quick) {
    const { execute } = await import('@oclif/core')
    await execute({ dir: import.meta.url })
  }
  // The command has finished and closed what it opened. Reads abandoned after a failure may still be
  // winding down; they must not hold the process, and Node 20 can trip over an HTTP/2 session that is
  // torn down while the process ends on its own.
  exitWhenFlushed()
}

/** The quick start, compiled code cached between runs (src/code-cache.ts); false hands the line to oclif. */
async function runQuick({ loadWithCodeCache, stateDir }) {
  const bundle = loadWithCodeCache(fileURLToPath(new URL('../dist/bundle/quick.cjs', import.meta.url)), stateDir())
  const handled = await bundle.exports.runQuick(argv, packageVersion())
  if (handled) bundle.save()
  return handled
}

function exitWhenFlushed() {
  process.stdout.write('', () => process.stderr.write('', () => process.exit()))
}
