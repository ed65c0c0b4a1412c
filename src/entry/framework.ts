/**
 * What the entry point (main.ts) loads only for lines the quick start does not serve: oclif (help at other
 * widths, unusual command lines) and the shell completion. An ES module beside
 * the oclif commands (dist/bundle/framework.js with the npm package, lib/framework.mjs in the single
 * executable), so that both share one oclif.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { ExitCode } from '../util/errors.js'
import { flush, handle, run } from '@oclif/core'
import { flagsAfterCommand, notFoundCommand, unknownCommandLine, type ManifestCommands } from './unknown-command.js'
import { writeStderr } from '../util/output.js'

export { complete } from './complete.js'

/** oclif on this command line; root holds package.json (oclif's configuration) and oclif.manifest.json. */
export async function runOclif(argv: string[], root: string): Promise<void> {
  try {
    await run(argv, root)
    await flush()
  } catch (error) {
    const typed = notFoundCommand(error)
    if (!typed) return handle(error as Error)
    const manifest = JSON.parse(readFileSync(path.join(root, 'oclif.manifest.json'), 'utf8')) as { commands: ManifestCommands }
    const reordered = typed.startsWith('-') ? flagsAfterCommand(argv, manifest.commands) : undefined
    writeStderr(reordered ? `error: flags go after the command: ${reordered}\n` : unknownCommandLine(typed, Object.keys(manifest.commands)))
    process.exitCode = ExitCode.Usage
  }
}
