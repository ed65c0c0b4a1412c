import { describe, expect, it } from 'vitest'
import { configState } from '../../../src/analysis/config-state.js'
import { SnapshotIndex } from '../../../src/snapshot/index.js'
import { annotation } from '../../../src/snapshot/operator.js'
import { loadBundle } from '../../helpers/bundles.js'

/**
 * The local history is keyed by the cluster's address and the node's name. A node recreated under the same
 * name, or another cluster later served at the same address, must not make today's Pod look like a restart.
 */
describe('config-hash history across objects of the same name', () => {
  const verdictWith = async (seenAt: (nodeCreated: number) => number) => {
    const snapshot = await loadBundle('healthy')
    const index = new SnapshotIndex(snapshot)
    const node = index.chainNodes().find((n) => index.podOf(n)?.metadata.annotations?.[annotation('config-hash')])!
    const pod = index.podOf(node)!
    const started = Date.parse(pod.status?.startTime ?? pod.metadata.creationTimestamp!)
    snapshot.observations = [
      {
        node: `${node.metadata.namespace}/${node.metadata.name}`,
        at: new Date(seenAt(Date.parse(node.metadata.creationTimestamp!))).toISOString(),
        podUid: 'an-earlier-pod',
        podHash: pod.metadata.annotations![annotation('config-hash')],
        configMapHash: pod.metadata.annotations![annotation('config-hash')],
      },
    ]
    return configState(new SnapshotIndex(snapshot), node, started + 60_000).verdict
  }

  it('takes an earlier Pod of the same ChainNode as the one before a restart', async () => {
    expect(await verdictWith((created) => created + 1000)).toBe('restarted-unexpected')
  })

  it('ignores what was seen before the ChainNode was created', async () => {
    expect(await verdictWith((created) => created - 1000)).not.toBe('restarted-unexpected')
  })
})
