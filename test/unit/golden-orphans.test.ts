import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { GOLDEN_COMMANDS, GOLDEN_DIR, goldenCases } from '../helpers/golden.js'
import { FIXTURES, manifest } from './pprof/helpers.js'

// `vitest -u` (npm run golden:update) writes a file snapshot but never deletes one, so the golden of a renamed or
// dropped case would stay forever, compared with nothing. Every file in a golden folder must be one a case writes,
// derived from the very tables the golden tests run.

/** Every file under `dir`, relative to it, with / between folders. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(path.join(dir, file)).isFile())
    .map((file) => file.split(path.sep).join('/'))
    .sort()
}

/** The files under `dir` that no case writes; `written` holds paths relative to `dir`. */
function orphansUnder(dir: string, written: Iterable<string>): string[] {
  const expected = new Set(written)
  return filesUnder(dir).filter((file) => !expected.has(file))
}

/** What test/unit/golden.test.ts writes under test/golden. */
function goldenFilesWritten(): string[] {
  return [GOLDEN_COMMANDS, ...goldenCases().flatMap((c) => [c.file, ...(c.stderrFile ? [c.stderrFile] : [])])]
}

describe('golden folders hold only files a case writes', () => {
  it('test/golden: each file is a golden case of golden.test.ts', () => {
    const written = goldenFilesWritten()
    expect(written.length).toBeGreaterThan(100)
    expect(new Set(written).size, 'two golden cases write the same file').toBe(written.length)
    expect(orphansUnder(GOLDEN_DIR, written), 'no golden case writes these any more: delete them (or restore their case)').toEqual([])
  })

  it('test/fixtures/pprof: each go tool pprof -top output is a case of its cases.json', () => {
    const outputs = filesUnder(FIXTURES).filter((file) => file.endsWith('.top.txt'))
    const listed = new Set(manifest().cases.map((c) => c.output))
    expect(outputs.length).toBeGreaterThan(10)
    expect(
      outputs.filter((file) => !listed.has(file)),
      'cases.json lists no case for these: regenerate (cd test/profgen && go run . fixtures) or delete them',
    ).toEqual([])
  })

  it('names a file no case writes, in a nested folder too, and nothing else', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'golden-orphans-'))
    try {
      mkdirSync(path.join(dir, 'healthy'))
      for (const file of ['healthy/doctor.txt', 'healthy/doctor.old.txt', 'status.txt']) writeFileSync(path.join(dir, file), '')
      expect(orphansUnder(dir, ['healthy/doctor.txt', 'status.txt', 'gone/never-written.txt'])).toEqual(['healthy/doctor.old.txt'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
