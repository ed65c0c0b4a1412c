#!/usr/bin/env node
// Shared entry of both executables. `--version` is answered before oclif loads: CI smoke checks
// and kubectl plugin listings call it often, and loading the framework costs more than kubectl's whole run.
import { readFileSync } from 'node:fs'

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`kubectl-chainnode/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  const { execute } = await import('@oclif/core')
  await execute({ dir: import.meta.url })
}
