import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

/** Where code lives: none of it may reach for a folder beside the checkout (a user's clone has nothing there). */
const CODE_DIRS = ['src', 'test', 'scripts', 'bench', 'bin', 'tools', '.ci']
const CONFIG_FILES = ['package.json', 'vitest.config.ts', 'eslint.config.js', 'tsconfig.json', 'tsconfig.build.json']
/** .ci/run hands the reference folder to those tests explicitly (CHAINNODE_REFERENCE_DIR) after cloning. */
const CI_ENTRY = path.join('.ci', 'run')
/** This test, whose own examples of what it refuses would match. */
const THIS_TEST = path.join('test', 'unit', 'stands-alone.test.ts')

function files(dir: string): string[] {
  const full = path.join(ROOT, dir)
  if (statSync(full, { throwIfNoEntry: false })?.isDirectory() !== true) return []
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory())
      return entry.name === 'node_modules' || rel === path.join('test', 'fixtures') || rel === path.join('test', 'golden') ? [] : files(rel)
    return /\.(ts|mts|cts|js|mjs|cjs|sh|go|json)$|^run$|^[^.]+$/.test(entry.name) ? [rel] : []
  })
}

/** The reference folder's name, spelled in parts so that this test does not itself name a path beside the checkout. */
const SIBLING = ['sha', 'red'].join('')
// A path that climbs out of the repository into the reference folder: `..` then the folder, however it is joined.
const OUTSIDE = new RegExp(`\\.\\.[/\\\\'", ]+${SIBLING}\\b|\\b${SIBLING}[/\\\\](cosmopilot|spec|reference)\\b`)

describe('the repository stands alone', () => {
  it('no code, script or config reads a folder beside the checkout', () => {
    const offenders = [...CODE_DIRS.flatMap(files), ...CONFIG_FILES]
      .filter((file) => file !== CI_ENTRY && file !== THIS_TEST)
      .filter((file) => OUTSIDE.test(readFileSync(path.join(ROOT, file), 'utf8')))
    expect(offenders).toEqual([])
  })

  it('the pattern finds such a read (the check above can fail)', () => {
    expect(OUTSIDE.test(`join(REPO_ROOT, '..', '${SIBLING}', 'cosmopilot', 'crds')`)).toBe(true)
    expect(OUTSIDE.test(`readFileSync("../${SIBLING}/spec/operator-diagnostics.md")`)).toBe(true)
    expect(OUTSIDE.test('a shared subject of several nodes')).toBe(false)
  })
})
