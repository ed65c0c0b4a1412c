import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/cli.js'

/** The built-in modules a quick bundle loads before its command runs, in a fresh Node. */
function builtinsLoadedBy(bundle: string): string[] {
  const script = `const before = new Set(process.moduleLoadList)
require(${JSON.stringify(path.join(ROOT, 'dist', 'bundle', bundle))})
console.log(JSON.stringify(process.moduleLoadList.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13))))`
  const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' })
  expect(run.stderr).toBe('')
  return JSON.parse(run.stdout) as string[]
}

// The release executable's profile of status and events: what loads before the first request is most of their time.
describe('the quick start of status and events loads only what their first request needs', () => {
  it.each(['quick-status.cjs', 'quick-events.cjs'])('%s', (bundle) => {
    const loaded = builtinsLoadedBy(bundle)
    // The TLS stack is needed at once; the kubeconfig is read with the callback fs API, not fs/promises (~10 ms).
    expect(loaded).toContain('tls')
    expect(loaded).not.toContain('fs/promises')
    // Loaded on first use only: the HTTP/2 client when the connection is up, child processes for exec credentials.
    expect(loaded).not.toContain('http2')
    expect(loaded).not.toContain('child_process')
  })
})
