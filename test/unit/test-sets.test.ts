import { readdirSync } from 'node:fs'
import path from 'node:path'
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
})
