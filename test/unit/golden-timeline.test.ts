import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TimelineFormat } from '../../src/render/timeline.js'
import { FORMATS, goldenBundles, goldenFile, renderGolden, TIMELINE_GOLDEN_DIR } from '../helpers/golden-timeline.js'
import { schemaErrors } from '../helpers/schema.js'

/** `timeline --all --utc --bundle examples/bundles/B.tgz` must print exactly the stored file; `npm run golden:update` (vitest -u) refreshes them. */
const cases = goldenBundles().flatMap((bundle) => (Object.keys(FORMATS) as TimelineFormat[]).map((format) => [bundle, format] as const))

describe('timeline golden outputs of the example bundles', () => {
  it('has a golden file for every bundle and format', () => {
    expect(cases.length).toBeGreaterThanOrEqual(14 * 3)
    for (const [bundle, format] of cases) expect(existsSync(goldenFile(bundle, format)), goldenFile(bundle, format)).toBe(true)
    // ... and none for a bundle or format that is gone (vitest -u writes file snapshots but never deletes one).
    expect(readdirSync(TIMELINE_GOLDEN_DIR).sort()).toEqual(cases.map(([bundle, format]) => path.basename(goldenFile(bundle, format))).sort())
  })

  it.for(cases)('%s as %s', async ([bundle, format], { expect }) => {
    const output = await renderGolden(bundle, format)
    await expect(output).toMatchFileSnapshot(goldenFile(bundle, format))
    if (format === 'json') expect(schemaErrors('timeline.schema.json', JSON.parse(output))).toEqual([])
  })
})
