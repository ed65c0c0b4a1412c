import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { renderStatusText } from '../../../src/render/status.js'
import { annotation } from '../../../src/snapshot/operator.js'
import { statusRows } from '../../../src/analysis/status-model.js'
import { loadBundle } from '../../helpers/bundles.js'

// Issue 32 item 6: status says operator-wide trouble once above its table, and why a CONFIG cell is unknown.
describe('status: operator-wide trouble and unknown values', () => {
  it('names a stale leader Lease once, above the table, with the nodes it holds for', { timeout: 60_000 }, async () => {
    const { stdout, stderr, code } = await runCli(['status', '--bundle', 'examples/bundles/leader-election.tgz'], { env: { KUBECTL_CHAINNODE_COLUMNS: '' } })
    expect(stderr).toBe('')
    expect(code).toBe(0)
    const lines = stdout.split('\n')
    expect(lines[0]).toMatch(/^ERROR: leader-election: operator sc-leader-election\/cosmopilot-le: Lease le\.cosmopilot\.cosmopilot\.voluzi\.com is held by/)
    expect(stdout.match(/leader-election:/g)).toHaveLength(1)
    expect(stdout.indexOf('chainnode doctor --rule leader-election')).toBeLessThan(stdout.indexOf('NAME'))
  })

  it('says nothing above the table of a healthy fleet', { timeout: 60_000 }, async () => {
    const { stdout } = await runCli(['status', '--bundle', 'examples/bundles/healthy.tgz'], { env: { KUBECTL_CHAINNODE_COLUMNS: '' } })
    expect(stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS/)
    expect(stdout).not.toContain('unknown')
  })

  it('carries the operator trouble in JSON', { timeout: 60_000 }, async () => {
    const { stdout } = await runCli(['status', '--bundle', 'examples/bundles/webhook-certificates.tgz', '-o', 'json'])
    const list = JSON.parse(stdout) as { operator: { ruleId: string }[]; nodes: { config: string; configUnknown?: string }[] }
    expect(list.operator.map((o) => o.ruleId)).toEqual(['webhook-certificates'])
    expect(list.nodes[0]).toMatchObject({ config: 'unknown', configUnknown: expect.stringContaining('no Pod yet') })
  })

  it('explains each unknown CONFIG in a note under the table, one line per reason', async () => {
    const snapshot = await loadBundle('healthy')
    const index = new SnapshotIndex(snapshot)
    const [first, second] = index.chainNodes()
    delete index.podOf(first)!.metadata.annotations![annotation('config-hash')]
    snapshot.objects = snapshot.objects.filter((o) => o !== index.configMapOf(second))
    const fresh = new SnapshotIndex(snapshot)
    const text = renderStatusText(fresh, statusRows(fresh), { withNamespace: false })
    expect(text).toContain(`CONFIG unknown on ${first.metadata.name}: the Pod has no cosmopilot.voluzi.com/config-hash annotation`)
    expect(text).toContain(`CONFIG unknown on ${second.metadata.name}: no ConfigMap of the node's name`)
    // --no-headers (and watch) print rows only.
    expect(renderStatusText(fresh, statusRows(fresh), { withNamespace: false, noHeaders: true })).not.toContain('CONFIG unknown')
  })
})
