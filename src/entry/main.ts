/**
 * The one entry point: the npm bins (bin/run.js) and the single executable (its main script is this
 * module's bundle) start here. One place answers --version, shell completion and plain help lines, runs
 * the quick start (no oclif) or else oclif, reports a run that ended before it finished, and exits once the
 * output is flushed. CommonJS and small: Node 20 starts a script faster than an ES module, and everything
 * heavier is loaded only for the line that needs it.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { isSea } from 'node:sea'
import { pathToFileURL } from 'node:url'
import { loadWithCodeCache } from './code-cache.js'
import { stateDir } from '../util/state-dir.js'
import { reportFailure } from './failure.js'
import { ExitCode } from '../util/errors.js'
import type { QuickStart } from './quick.js'
import { quickBundleName, quickCommandOf } from './quick-commands.js'
import { storedHelp } from './quick-help.js'
import { reportIfAbandoned } from './unfinished.js'
import { userAgent } from '../util/user-agent.js'
import { writeStderr, writeStdout } from '../util/output.js'

/** Where things are: the package root (package.json, docs/, oclif.manifest.json) and the bundles. */
interface Layout {
  root: string
  lib: string
  /** ESM module of the oclif side (framework.ts). */
  framework: string
  /** The single executable has no node_modules: a package the quick start loads on demand is a file beside it. */
  aliases: Record<string, string>
}

function layoutOf(packageRoot: string | undefined): Layout {
  if (packageRoot !== undefined) {
    const lib = path.join(packageRoot, 'dist', 'bundle')
    return { root: packageRoot, lib, framework: path.join(lib, 'framework.js'), aliases: {} }
  }
  const root = path.dirname(process.execPath)
  const lib = path.join(root, 'lib')
  return { root, lib, framework: path.join(lib, 'framework.mjs'), aliases: { '@kubernetes/client-node': path.join(lib, 'client-node.cjs') } }
}

type Framework = typeof import('./framework.js')

/** packageRoot: the npm package's directory (bin/run.js); the single executable passes none. */
export async function main(packageRoot?: string): Promise<void> {
  const layout = layoutOf(packageRoot)
  const argv = process.argv.slice(2)
  const version = (JSON.parse(readFileSync(path.join(layout.root, 'package.json'), 'utf8')) as { version: string }).version
  const framework = () => import(pathToFileURL(layout.framework).href) as Promise<Framework>
  try {
    await reportIfAbandoned(dispatch(argv, layout, version, framework))
  } catch (error) {
    process.exitCode = reportFailure(error as Error, argv.includes('--debug'))
  }
  // The command has finished and closed what it opened. Reads abandoned after a failure may still be
  // winding down; they must not hold the process, and Node 20 can trip over an HTTP/2 session that is
  // torn down while the process ends on its own.
  writeStdout('', 'text', () => writeStderr('', () => process.exit()))
}

async function dispatch(argv: string[], layout: Layout, version: string, framework: () => Promise<Framework>): Promise<void> {
  // CI smoke checks, kubectl plugin listings and every <TAB> call these: loading oclif costs more than kubectl's whole run.
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) return void writeStdout(`${userAgent(version)}\n`)
  if (argv[0] === '__complete') return complete(argv.slice(1), layout, framework)
  const help = storedHelp(argv, path.join(layout.lib, 'help.json'), version)
  if (help !== undefined) return void writeStdout(help)
  const named = quickCommandOf(argv)
  if (named && (await runQuick(named.id, named.rest, layout, version))) return
  await (await framework()).runOclif(argv, layout.root)
}

/** The command's own quick bundle, its compiled code cached between runs (code-cache.ts); false hands the line to oclif. */
async function runQuick(id: Parameters<typeof quickBundleName>[0], rest: string[], layout: Layout, version: string): Promise<boolean> {
  const bundle = loadWithCodeCache<{ runQuick: QuickStart }>(path.join(layout.lib, quickBundleName(id)), stateDir(), layout.aliases)
  const handled = await bundle.exports.runQuick(rest, { version, root: layout.root })
  if (handled) bundle.save()
  return handled
}

async function complete(words: string[], layout: Layout, framework: () => Promise<Framework>): Promise<void> {
  try {
    const { complete } = await framework()
    writeStdout(`${await complete(words, path.join(layout.root, 'oclif.manifest.json'))}\n`)
  } catch {
    // Never print an error into a user's shell.
    writeStdout(':4\n')
  }
  // A hung API server may still hold a half-open socket: a <TAB> must not wait for it.
  process.exitCode = ExitCode.Clean
}

// The single executable runs this bundle as its main script; the npm bins call main() themselves.
if (isSea()) void main()
