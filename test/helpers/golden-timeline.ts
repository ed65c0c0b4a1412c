import path from 'node:path'
import { plainPalette } from '../../src/render/palette.js'
import { renderTimeline, type TimelineFormat } from '../../src/render/timeline.js'
import { selectRules } from '../../src/app/doctor.js'
import { bundleSnapshot } from '../../src/app/snapshots.js'
import { timelines } from '../../src/app/timeline.js'
import { ROOT } from './cli.js'
import { exampleBundleNames } from './fixtures.js'
import { GOLDEN_DIR } from './golden.js'

/**
 * Golden outputs of `chainnode timeline --all --utc --bundle B` for every example bundle, in text, markdown
 * and JSON, under test/golden/timeline/<bundle>.{txt,md,json}, rendered in process (test/unit/golden-timeline.test.ts).
 */
export const TIMELINE_GOLDEN_DIR = path.join(GOLDEN_DIR, 'timeline')
export const FORMATS: Record<TimelineFormat, string> = { text: 'txt', markdown: 'md', json: 'json' }

export const goldenBundles = exampleBundleNames

export const goldenFile = (bundle: string, format: TimelineFormat) => path.join(TIMELINE_GOLDEN_DIR, `${bundle}.${FORMATS[format]}`)

/** What the command prints for a bundle: the same reading, diagnosis, timeline and renderer calls. */
export async function renderGolden(bundle: string, format: TimelineFormat): Promise<string> {
  const relative = `examples/bundles/${bundle}.tgz`
  const snapshot = await bundleSnapshot(path.join(ROOT, relative), { scope: { kind: 'all' }, redact: true })
  const output = renderTimeline(format, timelines([snapshot], selectRules({}), {}, relative), plainPalette, true)
  return output.endsWith('\n') ? output : `${output}\n`
}
