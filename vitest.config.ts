import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { defineConfig } from 'vitest/config'

// One scratch folder per run, gone when the run ends: the temp folders of tests, of the CLIs they start and of
// the test cluster live under it (TMPDIR is inherited), instead of piling up in the machine's /tmp run after run.
if (!process.env.CHAINNODE_TEST_SCRATCH) {
  const scratch = mkdtempSync(path.join(tmpdir(), 'chainnode-tests-'))
  process.env.CHAINNODE_TEST_SCRATCH = scratch
  process.env.TMPDIR = scratch
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }))
}
// Every CLI a test starts keeps its history, code cache and operator Pods here, not in the user's cache: a
// history left by an earlier test cluster that had the same port would read as a restart of today's nodes.
process.env.KUBECTL_CHAINNODE_STATE_DIR ??= mkdtempSync(path.join(tmpdir(), 'chainnode-test-state-'))

export default defineConfig({
  test: {
    disableConsoleIntercept: true,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.e2e.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          pool: 'forks',
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 1_200_000,
        },
      },
    ],
  },
})
