import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { GOLDEN_DIR, goldenCases } from '../helpers/golden.js'

// A change of output shows up here as a diff; when it is meant, `npm run golden:update` and review the files.
describe.concurrent('golden outputs on the example bundles (test/golden, refreshed by npm run golden:update)', () => {
  // Each case is a whole process, a hundred of them next to the other test files on a shared machine: no tight limit.
  it.each(goldenCases().map((c) => [c.file, c.args] as const))('%s', { timeout: 180_000 }, async (file, args) => {
    const golden = path.join(GOLDEN_DIR, file)
    expect(existsSync(golden), `${file} is missing: run npm run golden:update`).toBe(true)
    const { code, stdout, stderr } = await runCli([...args])
    expect(stderr).toBe('')
    expect(code).toBeLessThanOrEqual(1)
    expect(stdout).toBe(readFileSync(golden, 'utf8'))
    // The doctor report is read on a terminal at night: it wraps and cuts to 120 columns even when piped.
    if (file.endsWith('doctor.txt')) for (const line of stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(120)
  })
})
