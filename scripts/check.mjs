// `npm run check`: the developer's quick loop (under a minute on two cores once its caches are warm), not the whole
// suite (`npm test`).
// Three lanes at once on two cores: the in-process unit tests (vitest.check.config.ts says which and why), the
// typecheck then the lint of src/, the rest of the lint. Each step's output is held and shown only when it fails,
// so lanes never interleave.
//
// Caches (under node_modules/.cache/kubectl-chainnode), each one safe to keep:
// - tsc --incremental: TypeScript's own record of every file it read, declarations of dependencies included.
// - prettier --cache: one file's formatting depends on its content, the options and prettier's version, all of
//   which the cache keys on.
// - eslint --cache outside src/: there every rule reads one file, and the cache keys on the file and the configuration
//   (test/unit/test-sets.test.ts checks no type-aware configuration reaches past src/).
// - eslint --cache on src/, one cache per key of scripts/type-aware-lint-key.mjs: the type-aware rules also read the
//   types a file imports, which the key follows. Without a clean typecheck there is no key, and src/ is linted afresh.
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { constants } from 'node:os'
import { stripVTControlCharacters } from 'node:util'
import { typeAwareLintKey } from './type-aware-lint-key.mjs'

const CACHE = 'node_modules/.cache/kubectl-chainnode'
const BUILD_INFO = `${CACHE}/typecheck.tsbuildinfo`
const bin = (name) => `node_modules/.bin/${name}`
const versionOf = (name) => JSON.parse(readFileSync(`node_modules/${name}/package.json`, 'utf8')).version

/** eslint over src/ with the cache of the current key, after dropping the caches of earlier keys. */
function lintSource(typecheckPassed) {
  if (!typecheckPassed) return { name: 'eslint src/ (type-aware, uncached: no clean typecheck)', command: [bin('eslint'), 'src'] }
  const key = typeAwareLintKey(BUILD_INFO, { eslint: versionOf('eslint'), typescriptEslint: versionOf('typescript-eslint') })
  const cache = `eslint-src-${key}`
  for (const old of readdirSync(CACHE).filter((name) => name.startsWith('eslint-src-') && name !== cache)) rmSync(`${CACHE}/${old}`, { force: true })
  return {
    name: 'eslint src/ (type-aware)',
    command: [bin('eslint'), '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/${cache}`, 'src'],
  }
}

/** Each lane runs its steps in order; a step given as a function is made from whether the one before it passed. */
const LANES = [
  [{ name: 'unit tests (in-process set)', command: [bin('vitest'), 'run', '--config', 'vitest.check.config.ts'], summary: /^\s*(Test Files|Tests)\s/ }],
  [{ name: 'typecheck', command: [bin('tsc'), '-p', 'tsconfig.json', '--noEmit', '--incremental', '--tsBuildInfoFile', BUILD_INFO] }, lintSource],
  [
    {
      name: 'eslint outside src/',
      command: [bin('eslint'), '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/eslint`, '--ignore-pattern', 'src/**', '.'],
    },
    { name: 'prettier', command: [bin('prettier'), '--check', '--cache', '--cache-location', `${CACHE}/prettier`, '.'] },
  ],
]

const children = new Set()
const colour = process.stdout.isTTY && !process.env.NO_COLOR
const mark = (ok) => (colour ? (ok ? '\u001b[32m✓\u001b[39m' : '\u001b[31m✗\u001b[39m') : ok ? 'ok  ' : 'FAIL')

function run({ command: [file, ...args] }) {
  return new Promise((resolve) => {
    const child = spawn(file, args, { env: { ...process.env, ...(colour ? { FORCE_COLOR: '1' } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.on('error', (error) => (output += `${error.message}\n`))
    child.on('close', (code) => {
      children.delete(child)
      resolve({ ok: code === 0, output })
    })
  })
}

async function runLane(steps) {
  let ok = true
  let previousPassed = true
  for (const stepOrMaker of steps) {
    const step = typeof stepOrMaker === 'function' ? stepOrMaker(previousPassed) : stepOrMaker
    const started = Date.now()
    const result = await run(step)
    const seconds = ((Date.now() - started) / 1000).toFixed(1)
    process.stdout.write(`${mark(result.ok)} ${step.name} (${seconds}s)\n`)
    const plain = stripVTControlCharacters(result.output)
    if (!result.ok) process.stdout.write(`${result.output.trimEnd()}\n\n`)
    else if (step.summary) for (const line of plain.split('\n').filter((l) => step.summary.test(l))) process.stdout.write(`    ${line.trim()}\n`)
    ok &&= result.ok
    previousPassed = result.ok
  }
  return ok
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal)
    process.exit(128 + constants.signals[signal])
  })
}

mkdirSync(CACHE, { recursive: true })
const started = Date.now()
const results = await Promise.all(LANES.map(runLane))
const seconds = ((Date.now() - started) / 1000).toFixed(1)
const passed = results.every(Boolean)
process.stdout.write(
  `${passed ? 'check passed' : 'check failed'} in ${seconds}s; npm test also runs the CLI, browser, Go and fuzz tests and the end-to-end suite\n`,
)
process.exit(passed ? 0 : 1)
