import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

// In a fresh process, as the entry points use it: the built module is what bin/run.js loads.
const unfinished = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/entry/unfinished.js')).href

function run(work: string) {
  const script = `import { reportIfAbandoned } from ${JSON.stringify(unfinished)}\nreportIfAbandoned(${work})`
  return spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
}

describe('a run the event loop gives up on', () => {
  it('exits 3 and says so instead of ending quietly with 0', () => {
    // A read whose end was lost: nothing will ever settle it, and nothing keeps the process alive.
    const result = run('new Promise(() => {})')
    expect(result.stderr).toMatch(/^error: the run ended before it finished/)
    expect(result.status).toBe(3)
  })

  it('leaves a run that finishes alone', () => {
    const result = run('new Promise((resolve) => setTimeout(resolve, 20))')
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
  })
})
