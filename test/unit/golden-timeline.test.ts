import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { exampleBundleNames } from '../helpers/fixtures.js'
import { GOLDEN_DIR, goldenCases } from '../helpers/golden.js'
import { schemaErrors } from '../helpers/schema.js'

// The timeline goldens are cases of golden.test.ts (the command run as a process, its exit code in COMMANDS.txt);
// what is particular to them is checked here.
const timelineCases = goldenCases().filter((c) => c.file.startsWith('timeline/'))

describe('timeline golden outputs of the example bundles', () => {
  it('has one per bundle and format: text, markdown and JSON', () => {
    expect(timelineCases).toHaveLength(exampleBundleNames().length * 3)
    expect(exampleBundleNames().length).toBeGreaterThanOrEqual(14)
  })

  it.for(timelineCases.filter((c) => c.file.endsWith('.json')).map((c) => c.file))('%s follows timeline.schema.json', (file) => {
    expect(schemaErrors('timeline.schema.json', JSON.parse(readFileSync(path.join(GOLDEN_DIR, file), 'utf8')))).toEqual([])
  })
})
