#!/usr/bin/env node
// Shared entry of both executables. `--version` and shell completion are answered before oclif loads:
// CI smoke checks, kubectl plugin listings and every <TAB> call them, and loading the framework costs
// more than kubectl's whole run.
import { readFileSync } from 'node:fs'

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
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
  process.stdout.write('', () => process.exit(0))
} else {
  const { execute } = await import('@oclif/core')
  await execute({ dir: import.meta.url })
}
