import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'

// Issue 40 item 7: kubectl cuts no cell; a long row wraps in the terminal. On an 80-column terminal the tables of
// status, events, timeline and describe are the piped ones, whole.
const at = (columns: string) => ({ env: { KUBECTL_CHAINNODE_COLUMNS: columns } })

describe('tables as kubectl prints them: no cell cut on a narrow terminal', () => {
  it.for([
    ['status', ['status', '-A', '--bundle', 'examples/bundles/leader-election.tgz']],
    ['status -o wide', ['status', '--bundle', 'examples/bundles/healthy.tgz', '-o', 'wide']],
    ['events', ['events', '--bundle', 'examples/bundles/image-pull.tgz']],
    ['describe', ['describe', 'pull-0', '-n', 'sc-image-pull', '--bundle', 'examples/bundles/image-pull.tgz']],
  ] as const)('%s at 80 columns prints what a pipe gets', { timeout: 60_000 }, async ([, args]) => {
    const [narrow, piped] = await Promise.all([runCli([...args], at('80')), runCli([...args], at(''))])
    expect(narrow.code).toBe(piped.code)
    expect(narrow.stdout).toBe(piped.stdout)
    expect(narrow.stdout).not.toContain('…')
    // Something in it is wider than the terminal, so the test shows a row left whole.
    expect(Math.max(...narrow.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(80)
  })

  it('timeline at 80 columns keeps every table line whole; only the headings wrap', { timeout: 60_000 }, async () => {
    const args = ['timeline', '--all', '--utc', '--bundle', 'examples/bundles/signer-discovery-timeout.tgz']
    const [narrow, piped] = await Promise.all([runCli(args, at('80')), runCli(args, at(''))])
    const rows = (text: string) => text.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT|^TIME\s/.test(line))
    expect(rows(narrow.stdout).length).toBeGreaterThan(3)
    expect(rows(narrow.stdout)).toEqual(rows(piped.stdout))
    expect(narrow.stdout).not.toMatch(/…$/m)
    expect(Math.max(...rows(narrow.stdout).map((l) => l.length))).toBeGreaterThan(80)
  })
})
