import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { TimelineFormat } from '../../src/render/timeline.js'
import { FORMATS, goldenBundles, goldenFile, renderGolden } from '../helpers/golden-timeline.js'
import { schemaErrors } from '../helpers/schema.js'

/** `timeline --all --utc --bundle examples/bundles/B.tgz` must print exactly the stored file; `npm run golden:update` (vitest -u) refreshes them. */
const cases = goldenBundles().flatMap((bundle) => (Object.keys(FORMATS) as TimelineFormat[]).map((format) => [bundle, format] as const))

describe('timeline golden outputs of the example bundles', () => {
  it('has a golden file for every bundle and format', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14 * 3)
    for (const [bundle, format] of cases) expect(existsSync(goldenFile(bundle, format)), goldenFile(bundle, format)).toBe(true)
    // None for a bundle or format that is gone: test/unit/golden-orphans.test.ts checks every golden folder.
  })

  it.for(cases)('%s as %s', async ([bundle, format], { expect }) => {
    const output = await renderGolden(bundle, format)
    await expect(output).toMatchFileSnapshot(goldenFile(bundle, format))
    if (format === 'json') expect(schemaErrors('timeline.schema.json', JSON.parse(output))).toEqual([])
  })
})
