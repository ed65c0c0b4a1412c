import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { createVitest, type Vitest } from 'vitest/node'
import { LEFT_TO_NPM_TEST } from '../../vitest.check.config.js'
import { ROOT } from '../helpers/cli.js'

/** Every *.test.ts under test/, relative to the repository. */
function testFiles(dir = path.join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return testFiles(full)
    return entry.name.endsWith('.test.ts') ? [path.relative(ROOT, full)] : []
  })
}

/** The files a config runs, as vitest itself resolves them, by project. */
async function filesRun(config: string): Promise<Map<string, string[]>> {
  let vitest: Vitest | undefined
  try {
    vitest = await createVitest('test', { config: path.join(ROOT, config), root: ROOT, watch: false }, {}, {})
    const byProject = new Map<string, string[]>()
    for (const spec of await vitest.globTestSpecifications()) {
      const files = byProject.get(spec.project.name) ?? []
      files.push(path.relative(ROOT, spec.moduleId))
      byProject.set(spec.project.name, files)
    }
    return byProject
  } finally {
    await vitest?.close()
  }
}

describe('the tests npm run check leaves out still run in npm test', () => {
  let whole: Map<string, string[]>
  let quick: Map<string, string[]>
  beforeAll(async () => {
    whole = await filesRun('vitest.config.ts')
    quick = await filesRun('vitest.check.config.ts')
  })

  it('npm test (vitest run, every project) runs every test file under test/', () => {
    const run = [...whole.values()].flat()
    expect(new Set(run).size).toBe(run.length)
    expect(run.sort()).toEqual(testFiles().sort())
  })

  it('check runs the unit project less the files it names, each named file exists', () => {
    const unit = whole.get('unit') ?? []
    const leftOut = Object.values(LEFT_TO_NPM_TEST).flat()
    expect(leftOut.filter((file) => !unit.includes(file))).toEqual([])
    expect([...quick.keys()]).toEqual(['check'])
    expect((quick.get('check') ?? []).sort()).toEqual(unit.filter((file) => !leftOut.includes(file)).sort())
  })

  it('check runs no test file that starts a process with spawn or the built CLI, or reads the build (such a file is named in LEFT_TO_NPM_TEST)', () => {
    const needsMore = /\brunCli\(|\bspawn(Sync)?\(|\bdist\//
    const offenders = (quick.get('check') ?? []).filter((file) => needsMore.test(readFileSync(path.join(ROOT, file), 'utf8')))
    expect(offenders).toEqual([])
  })
})

describe('what npm run check caches is safe to cache', () => {
  it('no type-aware lint configuration reaches past src/, which check lints without a cache', async () => {
    type LintConfig = { files?: unknown[]; languageOptions?: { parserOptions?: Record<string, unknown> } }
    const { default: configs } = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.js')).href)) as { default: LintConfig[] }
    const typeAware = configs.filter(({ languageOptions }) => languageOptions?.parserOptions?.projectService || languageOptions?.parserOptions?.project)
    expect(typeAware.length).toBeGreaterThan(0)
    for (const { files } of typeAware) {
      expect(files?.length).toBeGreaterThan(0)
      expect(files?.filter((pattern) => typeof pattern !== 'string' || !pattern.startsWith('src/'))).toEqual([])
    }
  })

  it('npm test runs every vitest project, check the quick config', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(scripts.test).toMatch(/\bvitest run\b/)
    expect(scripts.test).not.toMatch(/--project|--config|--exclude/)
    expect(readFileSync(path.join(ROOT, 'scripts/check.mjs'), 'utf8')).toContain("'--config', 'vitest.check.config.ts'")
  })
})
