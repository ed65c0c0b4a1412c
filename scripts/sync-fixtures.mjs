// Unpack every example bundle (examples/bundles/<name>.tgz, what users run) into a text copy under
// test/fixtures/bundles/<name>/, which the tests read: a change to a fixture then shows in review as a
// diff of JSON and log lines. test/unit/fixtures-in-sync.test.ts fails when the two differ.
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { extract } from 'tar'

const root = path.resolve(import.meta.dirname, '..')
const examples = path.join(root, 'examples', 'bundles')
const fixtures = path.join(root, 'test', 'fixtures', 'bundles')
mkdirSync(fixtures, { recursive: true })

const names = readdirSync(examples)
  .filter((file) => file.endsWith('.tgz'))
  .map((file) => file.slice(0, -'.tgz'.length))
for (const name of names) {
  const staging = mkdtempSync(path.join(tmpdir(), 'fixture-'))
  try {
    // The archive holds one top directory named after the collection time: the copy is named after the bundle.
    await extract({ file: path.join(examples, `${name}.tgz`), cwd: staging, strip: 1 })
    rmSync(path.join(fixtures, name), { recursive: true, force: true })
    renameSync(staging, path.join(fixtures, name))
  } catch (error) {
    rmSync(staging, { recursive: true, force: true })
    throw error
  }
}
for (const stale of readdirSync(fixtures).filter((name) => !names.includes(name))) rmSync(path.join(fixtures, stale), { recursive: true })
process.stdout.write(`${names.length} bundles unpacked into ${path.relative(root, fixtures)}/\n`)
