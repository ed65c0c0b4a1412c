import { describe, expect, it } from 'vitest'
import { readBundle } from '../../src/snapshot/bundle.js'
import { SnapshotIndex } from '../../src/snapshot/index.js'
import { annotation } from '../../src/snapshot/operator.js'
import { statusRows } from '../../src/analysis/status-model.js'
import { configState } from '../../src/analysis/config-state.js'
import { exampleBundleNames, fixtureBundle } from '../helpers/fixtures.js'

const BUNDLES = exampleBundleNames()

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
