/**
 * Golden outputs of `chainnode timeline --all --utc --bundle B` for every example bundle, in text,
 * markdown and JSON, under test/golden/timeline/<bundle>.{txt,md,json}; test/unit/golden-timeline.test.ts
 * compares them exactly.
 *   npm run golden:timeline            rewrite them after an intended change (then review the diff)
 *   npx tsx scripts/golden-timeline.ts --check   say which differ, exit 1 if any
 */
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { plainPalette } from '../src/render/palette.js'
import { renderTimeline, type TimelineFormat } from '../src/render/timeline.js'
import { selectRules } from '../src/app/doctor.js'
import { bundleSnapshot } from '../src/app/snapshots.js'
import { timelines } from '../src/app/timeline.js'

const ROOT = path.resolve(import.meta.dirname, '..')
export const GOLDEN_DIR = path.join(ROOT, 'test', 'golden', 'timeline')
const BUNDLES = path.join(ROOT, 'examples', 'bundles')
export const FORMATS: Record<TimelineFormat, string> = { text: 'txt', markdown: 'md', json: 'json' }

export const goldenBundles = (): string[] =>
  readdirSync(BUNDLES)
    .filter((f) => f.endsWith('.tgz'))
    .map((f) => f.replace(/\.tgz$/, ''))
    .sort()

export const goldenFile = (bundle: string, format: TimelineFormat) => path.join(GOLDEN_DIR, `${bundle}.${FORMATS[format]}`)

/** What the command prints for a bundle: the same reading, diagnosis, timeline and renderer calls. */
export async function renderGolden(bundle: string, format: TimelineFormat): Promise<string> {
  const relative = `examples/bundles/${bundle}.tgz`
  const snapshot = await bundleSnapshot(path.join(ROOT, relative), { scope: { kind: 'all' }, redact: true })
  const output = renderTimeline(format, timelines([snapshot], selectRules({}), {}, relative), plainPalette, true)
  return output.endsWith('\n') ? output : `${output}\n`
}

async function main(): Promise<void> {
  const check = process.argv.includes('--check')
  mkdirSync(GOLDEN_DIR, { recursive: true })
  let differ = 0
  for (const bundle of goldenBundles()) {
    for (const format of Object.keys(FORMATS) as TimelineFormat[]) {
      const file = goldenFile(bundle, format)
      const output = await renderGolden(bundle, format)
      const same = existsSync(file) && readFileSync(file, 'utf8') === output
      if (same) continue
      differ++
      if (check) console.log(`differs: ${path.relative(ROOT, file)}`)
      else {
        writeFileSync(file, output)
        console.log(`wrote ${path.relative(ROOT, file)}`)
      }
    }
  }
  if (check && differ > 0) process.exitCode = 1
  if (!check && differ === 0) console.log('timeline goldens are up to date')
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main()
