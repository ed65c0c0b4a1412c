import { describe, expect, it } from 'vitest'
import { runCli } from '../../helpers/cli.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { renderStatusText, statusNotes } from '../../../src/render/status.js'
import { annotation } from '../../../src/snapshot/operator.js'
import { statusRows } from '../../../src/analysis/status-model.js'
import { loadBundle } from '../../helpers/bundles.js'

// Issue 32 item 6: status says operator-wide trouble once above its table, and why a CONFIG cell is unknown.
describe('status: operator-wide trouble and unknown values', () => {
  it('names a stale leader Lease once, on stderr, with the nodes it holds for: stdout holds only the table', { timeout: 60_000 }, async () => {
    const { stdout, stderr, code } = await runCli(['status', '--bundle', 'examples/bundles/leader-election.tgz'], { env: { KUBECTL_CHAINNODE_COLUMNS: '' } })
    expect(code).toBe(0)
    expect(stderr).toMatch(/^ERROR: leader-election: operator sc-leader-election\/cosmopilot-le: Lease le\.cosmopilot\.cosmopilot\.voluzi\.com is held by/)
    expect(stderr.match(/leader-election:/g)).toHaveLength(1)
    expect(stderr).toContain('chainnode doctor --rule leader-election')
    expect(stdout.split('\n')[0]).toMatch(/^NAME\s+STATUS/)
    expect(stdout).not.toContain('leader-election:')
  })

  it('--no-headers: rows only, on stdout, and nothing said on stderr (a script piping the table reads rows)', { timeout: 60_000 }, async () => {
    for (const bundle of ['leader-election', 'reconcile-failing']) {
      const { stdout, stderr } = await runCli(['status', '--bundle', `examples/bundles/${bundle}.tgz`, '-A', '--no-headers'], {
        env: { KUBECTL_CHAINNODE_COLUMNS: '80' },
      })
      expect(stderr, bundle).toBe('')
      const lines = stdout.trimEnd().split('\n')
      expect(lines.length, bundle).toBeGreaterThan(0)
      // Every line a row (NAME STATUS …), nothing else: no banner, note or heading.
      for (const line of lines) expect(line, bundle).toMatch(/^(?!ERROR|WARNING|Reconcile|CONFIG)[\w-]+-\d+ {3}/)
    }
  })

  it("the operator's latest error and unknown CONFIG notes go to stderr after the table, not stdout", { timeout: 60_000 }, async () => {
    const { stdout, stderr } = await runCli(['status', '--bundle', 'examples/bundles/reconcile-failing.tgz'], { env: { KUBECTL_CHAINNODE_COLUMNS: '' } })
    expect(stdout.trimEnd().split('\n')).toHaveLength(2)
    expect(stderr).toContain("Reconcile failing (the operator's latest error):")
    expect(stderr).toContain('CONFIG unknown on quota-0')
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
    const notes = statusNotes(fresh, statusRows(fresh), false, undefined).join('\n')
    expect(notes).toContain(`CONFIG unknown on ${first.metadata.name}: the Pod has no cosmopilot.voluzi.com/config-hash annotation`)
    expect(notes).toContain(`CONFIG unknown on ${second.metadata.name}: no ConfigMap of the node's name`)
    // The table itself says nothing but its rows.
    expect(renderStatusText(fresh, statusRows(fresh), { withNamespace: false })).not.toContain('CONFIG unknown')
  })
})
