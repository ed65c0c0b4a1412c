import { configDefaults, defineConfig } from 'vitest/config'
// The same per-run scratch folder and state folder as the whole suite (set when that config is loaded).
import './vitest.config.js'

/**
 * The unit tests `npm run check` leaves to `npm test`: each needs something the quick loop does not make or
 * start, or takes most of the loop's minute. `npm test` still runs every one of them (the `unit` project of
 * vitest.config.ts takes every file under test/unit/; test/unit/test-sets.test.ts holds that).
 */
export const LEFT_TO_NPM_TEST: Record<string, string[]> = {
  'start the built CLI as a separate process, so they need dist/ from `npm run build`': [
    'test/unit/bad-input.test.ts',
    'test/unit/bundle-diff.test.ts',
    'test/unit/bundle-left-out.test.ts',
    'test/unit/redact-bundle.test.ts',
    'test/unit/cli-contract.test.ts',
    'test/unit/cli-conventions.test.ts',
    'test/unit/golden.test.ts',
    'test/unit/hostile-cli.test.ts',
    'test/unit/input-shapes.test.ts',
    'test/unit/kubeconfig-bounded.test.ts',
    'test/unit/leaks.test.ts',
    'test/unit/offline-answers.test.ts',
    'test/unit/output-guard.test.ts',
    'test/unit/util/invocation.test.ts',
    'test/unit/render/events-since.test.ts',
    'test/unit/render/status-listing.test.ts',
    'test/unit/render/status-notes.test.ts',
    'test/unit/render/tables-whole.test.ts',
    'test/unit/render/time-format.test.ts',
  ],
  'start or read the built entry point and bundles in dist/': [
    'test/unit/code-cache.test.ts',
    'test/unit/entry.test.ts',
    'test/unit/help-examples.test.ts',
    'test/unit/layout.test.ts',
    'test/unit/quick-help.test.ts',
    'test/unit/quick-start-builtins.test.ts',
    'test/unit/unfinished.test.ts',
  ],
  'start programs the setup scripts install or build (Go targets, promtool, headless Chromium)': [
    'test/unit/pprof/diff-live.test.ts',
    'test/unit/pprof/flame-browser.test.ts',
    'test/unit/pprof/goroutines.test.ts',
    'test/unit/pprof/live-go.test.ts',
    'test/unit/prometheus-rules.test.ts',
    'test/unit/render/serve-metrics.test.ts',
  ],
  'lint made-up files with the type-aware ESLint configuration (about 10 s)': ['test/unit/network-boundary.test.ts'],
  "compile the Grafana dashboard against Grafana's dashboard model with the TypeScript compiler, four times (about 20 s)": [
    'test/unit/grafana-dashboard.test.ts',
  ],
  'send thousands of generated hostile cases through the readers (half a minute)': [
    'test/unit/fuzz-classes.test.ts',
    'test/unit/fuzz-readers.test.ts',
    'test/unit/fuzz-control-characters.test.ts',
    'test/unit/fuzz-redaction.test.ts',
  ],
}

/**
 * `npm run check`'s tests: every other unit test, in one worker thread that keeps modules loaded from one file
 * to the next (they share no state they do not restore), so importing src/ is paid once: about 25 s instead of
 * the four minutes of the whole unit project. The second core meanwhile runs the typecheck and lint
 * (scripts/check.mjs).
 */
export default defineConfig({
  test: {
    disableConsoleIntercept: true,
    projects: [
      {
        test: {
          name: 'check',
          include: ['test/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...Object.values(LEFT_TO_NPM_TEST).flat()],
          testTimeout: 30_000,
          pool: 'threads',
          isolate: false,
          maxWorkers: 1,
        },
      },
    ],
  },
})
