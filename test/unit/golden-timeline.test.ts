import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { TimelineFormat } from '../../src/render/timeline.js'
import { FORMATS, goldenBundles, goldenFile, renderGolden } from '../../scripts/golden-timeline.js'
import { schemaErrors } from '../helpers/schema.js'

/** `timeline --all --utc --bundle examples/bundles/B.tgz` must print exactly the stored file; `npm run golden:timeline` refreshes them. */
const cases = goldenBundles().flatMap((bundle) => (Object.keys(FORMATS) as TimelineFormat[]).map((format) => [bundle, format] as const))

describe('timeline golden outputs of the example bundles', () => {
  it('has a golden file for every bundle and format', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14 * 3)
    for (const [bundle, format] of cases) expect(existsSync(goldenFile(bundle, format)), goldenFile(bundle, format)).toBe(true)
  })

  it.each(cases)('%s as %s', async (bundle, format) => {
    const output = await renderGolden(bundle, format)
    expect(output).toBe(readFileSync(goldenFile(bundle, format), 'utf8'))
    if (format === 'json') expect(schemaErrors('timeline.schema.json', JSON.parse(output))).toEqual([])
  })
})
