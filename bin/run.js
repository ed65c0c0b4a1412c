#!/usr/bin/env node
// Shared entry of both executables, CommonJS (bin/package.json): Node 20 starts a script faster than an
// ES module, whose loader it would set up first. `--version` and shell completion are answered before
// oclif loads: CI smoke checks, kubectl plugin listings and every <TAB> call them, and loading the
// framework costs more than kubectl's whole run. For the same reason doctor starts without oclif when
// its command line is plain (dist/bundle/quick.cjs, from src/cli/quick.ts); help and odd lines go to oclif.
'use strict'
const { readFileSync } = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const root = path.join(__dirname, '..')
const argv = process.argv.slice(2)
const packageVersion = () => JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).version

async function main() {
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
    process.stdout.write(`kubectl-chainnode/${packageVersion()} ${process.platform}-${process.arch} node-${process.version}\n`)
    return
  }
  if (argv[0] === '__complete') {
    try {
      const { complete } = await import('../dist/completion/complete.js')
      process.stdout.write(`${await complete(argv.slice(1), pathToFileURL(path.join(root, 'oclif.manifest.json')))}\n`)
    } catch {
      // Never print an error into a user's shell.
      process.stdout.write(':4\n')
    }
    // A hung API server may still hold a half-open socket: a <TAB> must not wait for it.
    process.exitCode = 0
    exitWhenFlushed()
    return
  }
  const start = require('../dist/bundle/start.cjs')
  await start.reportIfAbandoned(runCommand(start))
  // The command has finished and closed what it opened. Reads abandoned after a failure may still be
  // winding down; they must not hold the process, and Node 20 can trip over an HTTP/2 session that is
  // torn down while the process ends on its own.
  exitWhenFlushed()
}

async function runCommand(start) {
  const quick = start.QUICK_COMMANDS.includes(argv[0]) && (await runQuick(start))
  if (!quick) {
    const oclif = await import('@oclif/core')
    try {
      // The package root, not this file: oclif takes the nearest package.json, and bin/ has its own.
      await oclif.run(argv, root)
      await oclif.flush()
    } catch (error) {
      const typed = start.notFoundCommand(error)
      if (!typed) return oclif.handle(error)
      const manifest = JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8'))
      process.stderr.write(start.unknownCommandLine(typed, Object.keys(manifest.commands)))
      process.exitCode = 2
    }
  }
}

/** The quick start, compiled code cached between runs (src/code-cache.ts); false hands the line to oclif. */
async function runQuick({ loadWithCodeCache, stateDir }) {
  const bundle = loadWithCodeCache(path.join(root, 'dist', 'bundle', 'quick.cjs'), stateDir(), {}, argv[0])
  const handled = await bundle.exports.runQuick(argv, packageVersion())
  if (handled) bundle.save()
  return handled
}

function exitWhenFlushed() {
  process.stdout.write('', () => process.stderr.write('', () => process.exit()))
}

main()
