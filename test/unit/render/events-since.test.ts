import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'

// Issue 32 item 8: events --since, as kubectl logs --since and kubectl events read it: by when an Event was last seen.
const bundle = 'examples/bundles/config-change-restart.tgz'
const env = { KUBECTL_CHAINNODE_COLUMNS: '' }
const reasons = (out: string) =>
  out
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split(/\s+/)[2])

describe('events --since', () => {
  it('keeps the Events last seen within the duration before the collection, and an old one repeated since', { timeout: 60_000 }, async () => {
    const [all, recent] = await Promise.all([runCli(['events', '--bundle', bundle], { env }), runCli(['events', '--bundle', bundle, '--since', '1h'], { env })])
    expect(reasons(all.stdout)).toContain('NodeStarted')
    expect(reasons(recent.stdout)).not.toContain('NodeStarted')
    expect(reasons(recent.stdout)).toContain('NodeRestarted')
    // NodeRunning of cfg-0 began 11 days ago and was seen again 11 minutes before the collection.
    expect(recent.stdout).toMatch(/11m\s+Normal\s+NodeRunning\s+chainnode\/cfg-0/)
    expect(reasons(recent.stdout).length).toBeLessThan(reasons(all.stdout).length)
  })

  it('takes an RFC 3339 time, and says a bad value in one line, exit 2', { timeout: 60_000 }, async () => {
    const after = await runCli(['events', '--bundle', bundle, '--since', '2030-01-01T00:00:00Z'], { env })
    expect(after.stdout.trim()).toBe('No events found.')
    const bad = await runCli(['events', '--bundle', bundle, '--since', 'yesterday'], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr.trim().split('\n')).toHaveLength(1)
  })
})
