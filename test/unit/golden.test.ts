import path from 'node:path'
import { describe, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { GOLDEN_DIR, goldenCases, goldenEnv } from '../helpers/golden.js'

// A change of output shows up here as a diff; when it is meant, `npm run golden:update` (vitest -u on the golden
// tests, after a build) rewrites the files: review their diff.
describe.concurrent('golden outputs on the example bundles (test/golden, refreshed by npm run golden:update)', () => {
  // Each case is a whole process, a hundred of them next to the other test files on a shared machine: no tight limit.
  it.for(goldenCases().map((c) => [c.file, c.args, c.columns, c.stderrFile] as const))(
    '%s',
    { timeout: 180_000 },
    async ([file, args, columns, stderrFile], { expect }) => {
      const { code, stdout, stderr } = await runCli([...args], { env: goldenEnv({ columns }) })
      if (stderrFile) await expect(stderr).toMatchFileSnapshot(path.join(GOLDEN_DIR, stderrFile))
      else expect(stderr).toBe('')
      expect(code).toBeLessThanOrEqual(1)
      await expect(stdout).toMatchFileSnapshot(path.join(GOLDEN_DIR, file))
      const lines = stdout.split('\n')
      // doctor's prose wraps at the terminal's width; a table is never cut (kubectl cuts no cell: the terminal wraps a long row).
      if (columns !== undefined && args[0] === 'doctor') for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns)
      if (columns === undefined || args[0] !== 'doctor') for (const line of lines) expect(line.endsWith('…'), line).toBe(false)
    },
  )
})
