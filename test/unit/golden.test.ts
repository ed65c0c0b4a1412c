import path from 'node:path'
import { describe, it } from 'vitest'
import { runCli } from '../helpers/cli.js'
import { commandLineOf, GOLDEN_COMMANDS, GOLDEN_DIR, goldenCases, goldenEnv } from '../helpers/golden.js'

// A change of output shows up here as a diff; when it is meant, `npm run golden:update` (vitest -u on the golden
// tests, after a build) rewrites the files: review their diff.
/** What each case exited with, by file: test/golden/COMMANDS.txt pins it beside the command line. */
const exitCodes = new Map<string, number>()

describe.concurrent('golden outputs on the example bundles (test/golden, refreshed by npm run golden:update)', () => {
  // Each case is a whole process, a hundred of them next to the other test files on a shared machine: no tight limit.
  it.for(goldenCases().map((c) => [c.file, c.args, c.columns, c.stderrFile] as const))(
    '%s',
    { timeout: 180_000 },
    async ([file, args, columns, stderrFile], { expect }) => {
      const { code, stdout, stderr } = await runCli([...args], { env: goldenEnv({ columns }) })
      if (stderrFile) await expect(stderr).toMatchFileSnapshot(path.join(GOLDEN_DIR, stderrFile))
      else expect(stderr).toBe('')
      exitCodes.set(file, code)
      await expect(stdout).toMatchFileSnapshot(path.join(GOLDEN_DIR, file))
      const lines = stdout.split('\n')
      // doctor's prose wraps at the terminal's width; a table is never cut (kubectl cuts no cell: the terminal wraps a long row).
      if (columns !== undefined && args[0] === 'doctor') for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(columns)
      if (columns === undefined || args[0] !== 'doctor') for (const line of lines) expect(line.endsWith('…'), line).toBe(false)
    },
  )
})

// After every case above has run (describe blocks run in order): the command lines and the exact exit codes, in one
// file a reviewer reads as a diff. A run of some cases only (-t) has nothing whole to compare.
describe('the command line and exit code of every golden output', () => {
  it(`test/golden/${GOLDEN_COMMANDS}`, async ({ expect, skip }) => {
    const cases = goldenCases()
    skip(exitCodes.size < cases.length, 'only some golden cases ran (-t): the whole table is compared when all run')
    const lines = cases.map((c) => `${c.file}: exit ${exitCodes.get(c.file)}: ${commandLineOf(c)}`)
    await expect(`${lines.join('\n')}\n`).toMatchFileSnapshot(path.join(GOLDEN_DIR, GOLDEN_COMMANDS))
  })
})
