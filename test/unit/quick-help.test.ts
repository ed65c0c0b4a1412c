import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { helpKey, type StoredHelp } from '../../src/entry/quick-help.js'
import { ROOT } from '../helpers/cli.js'

// The built package, as the bins run it: the entry point answers help from dist/bundle/help.json.
const stored = JSON.parse(readFileSync(path.join(ROOT, 'dist', 'bundle', 'help.json'), 'utf8')) as StoredHelp
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: object }
const plainEnv = (extra: NodeJS.ProcessEnv = {}) => {
  const { FORCE_COLOR: _force, OCLIF_COLUMNS: _columns, ...env } = process.env
  return { ...env, ...extra }
}

/** The entry point (no oclif for a plain help line). */
const entry = (argv: string[], env = plainEnv()) => spawnSync(process.execPath, [path.join(ROOT, 'bin', 'run.js'), ...argv], { encoding: 'utf8', env })

/** oclif itself on the same line, with no entry point in front: the reference. */
function oclif(argv: string[], env = plainEnv()) {
  const script = `import { run, flush } from '@oclif/core'\nawait run(${JSON.stringify(argv)}, ${JSON.stringify(ROOT)})\nawait flush()`
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env, cwd: ROOT })
}

describe('help printed without oclif', () => {
  const ids = ['', 'pprof', ...Object.keys(manifest.commands).map((id) => id.replace(/:/g, ' '))]

  it('is stored for the top level, every command and every topic', () => {
    expect(Object.keys(stored.texts).sort()).toEqual([...new Set([...ids, 'config-hash', 'pprof', 'rules'])].sort())
  })

  it.each(ids.map((id) => [id || '(top level)', id]))('%s: the same text as oclif gives, in every way of asking', (_name, id) => {
    const words = id ? id.split(' ') : []
    const reference = oclif([...words, '--help'])
    expect(reference.status).toBe(0)
    expect(reference.stdout).toMatch(/USAGE/)
    for (const argv of [
      [...words, '--help'],
      [...words, '-h'],
      ['help', ...words],
    ]) {
      const ours = entry(argv)
      expect(ours.stderr, argv.join(' ')).toBe('')
      expect(ours.stdout, argv.join(' ')).toBe(reference.stdout)
    }
  })

  it('leaves another width to oclif, which wraps there', () => {
    const env = plainEnv({ OCLIF_COLUMNS: '60' })
    const ours = entry(['status', '--help'], env).stdout
    expect(ours).toBe(oclif(['status', '--help'], env).stdout)
    expect(ours).not.toBe(stored.texts.status)
  })

  it.each([
    [[], ''],
    [['--help'], ''],
    [['help'], ''],
    [['pprof', 'heap', '-h'], 'pprof heap'],
    [['help', 'rules', 'explain'], 'rules explain'],
    [['status', 'fullnode-0', '--help'], 'status fullnode-0'],
    [['status', '-n', 'x', '--help'], undefined],
    [['status', '--help', '-n'], undefined],
    [['status'], undefined],
  ])('%j asks for the help of %j', (argv, key) => expect(helpKey(argv)).toBe(key))
})
