import { describe, expect, it } from 'vitest'
import { readBundle } from '../../src/snapshot/bundle.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import { annotation } from '../../src/snapshot/operator.js'
import { statusRows } from '../../src/analysis/status-model.js'
import { configState } from '../../src/analysis/config-state.js'
import { statusNotes } from '../../src/render/status.js'
import { QUOTA_ERROR } from '../cluster/scenarios/sc-reconcile-failing.js'
import { useBundles } from '../helpers/bundles.js'
import { exampleBundleNames, fixtureBundle } from '../helpers/fixtures.js'

const BUNDLES = exampleBundleNames()
/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('reconcile-failing', 'healthy-no-leader-election')

/** status's CONFIG column and config-hash's verdict come from one place: they never disagree about a node. */
describe('status CONFIG reads the one config verdict', () => {
  it.each(BUNDLES)('agrees with configState on every node of %s', async (name) => {
    const index = new SnapshotIndex(await readBundle(fixtureBundle(name)))
    const now = Date.parse(index.snapshot.collectedAt)
    const rows = statusRows(index)
    expect(rows).toHaveLength(index.chainNodes().length)
    for (const [i, node] of index.chainNodes().entries()) {
      const state = configState(index, node, now)
      const comparable = Boolean(state.podHash && state.configMapHash)
      const expected = !comparable ? 'unknown' : state.verdict === 'pending' || state.verdict === 'deferred' ? 'pending' : 'in-sync'
      expect(rows[i].config, `${node.metadata.namespace}/${node.metadata.name}: ${state.verdict}`).toBe(expected)
    }
  })

  it('says pending when the hashes agree but the Pod was made for an older generation of the ChainNode', async () => {
    const snapshot = await readBundle(fixtureBundle('healthy'))
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes().find((n) => index.podOf(n) && index.configMapOf(n))!
    const pod = index.podOf(node)!
    const hash = index.configMapOf(node)!.metadata.annotations![annotation('config-hash')]
    node.metadata.generation = 3
    pod.metadata.annotations = { ...pod.metadata.annotations, [annotation('config-hash')]: hash, [annotation('chainnode-generation')]: '2' }
    const fresh = new SnapshotIndex(snapshot)
    expect(configState(fresh, node, Date.parse(snapshot.collectedAt)).verdict).toBe('pending')
    expect(statusRows(fresh).find((r) => r.name === node.metadata.name)?.config).toBe('pending')
    pod.metadata.annotations[annotation('chainnode-generation')] = '3'
    expect(statusRows(new SnapshotIndex(snapshot)).find((r) => r.name === node.metadata.name)?.config).toBe('in-sync')
  })
})

describe("status shows the operator's latest error", () => {
  it('in the row data and on a line under the table', () => {
    const index = new SnapshotIndex(load('reconcile-failing'))
    const rows = statusRows(index)
    expect(rows[0].operatorError).toMatchObject({ error: QUOTA_ERROR })
    expect(rows[0].operatorError!.count).toBeGreaterThan(1)
    // Wrapped at the width of prose: its lines joined again.
    const text = statusNotes(index, rows, false, undefined)
      .join('\n')
      .replace(/\n {4}/g, ' ')
    expect(text).toMatch(
      new RegExp(
        `^Reconcile failing \\(the operator's latest error\\):\\n  quota-0: failed to create init pod: .* \\(x\\d+ over \\d+m\\), last \\S+ ago$`,
        // The line ends there; a note on an unknown CONFIG may follow.
        'm',
      ),
    )
  })

  it('says nothing for a node whose reconciles go through', () => {
    const index = new SnapshotIndex(load('healthy-no-leader-election'))
    const rows = statusRows(index)
    expect(rows[0].operatorError).toBeUndefined()
    expect(statusNotes(index, rows, false, undefined).join('\n')).not.toMatch(/Reconcile failing/)
  })
})
