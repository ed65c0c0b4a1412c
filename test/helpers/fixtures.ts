import { readdirSync } from 'node:fs'
import path from 'node:path'
import { ROOT } from './cli.js'

/** The example bundles users run (examples/bundles/<name>.tgz). */
export const EXAMPLE_BUNDLES = path.join(ROOT, 'examples', 'bundles')

/** Their unpacked text copies, which the tests read (kept in sync by `npm run fixtures:sync`). */
export const FIXTURE_BUNDLES = path.join(ROOT, 'test', 'fixtures', 'bundles')

export const fixtureBundle = (name: string) => path.join(FIXTURE_BUNDLES, name)

export const exampleBundleNames = (): string[] =>
  readdirSync(EXAMPLE_BUNDLES)
    .filter((file) => file.endsWith('.tgz'))
    .map((file) => file.slice(0, -'.tgz'.length))
    .sort()
