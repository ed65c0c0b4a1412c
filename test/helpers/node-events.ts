import type { Snapshot } from '../../src/snapshot/types.js'

/**
 * `count` more Events about one node's ChainNode and Pod, one a second up to the collection time, each message with
 * its own numbers as a noisy node writes them (a few reasons): what timeline reads at bundle scale (issue 44).
 */
export function addNodeEvents(snapshot: Snapshot, namespace: string, name: string, count: number): Snapshot {
  const about = snapshot.objects.filter((o) => o.metadata.namespace === namespace && o.metadata.name === name && (o.kind === 'ChainNode' || o.kind === 'Pod'))
  const end = Date.parse(snapshot.collectedAt)
  const reasons = ['NodeRunning', 'HeightUpdated', 'ConfigChanged', 'UpgradeChecked', 'FailedToGetHeight', 'PodRecreated', 'DataSynced']
  for (let i = 0; i < count; i++) {
    const at = new Date(end - (count - i) * 1000).toISOString().replace('.000Z', 'Z')
    const obj = about[i % about.length]
    snapshot.objects.push({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${name}.events${i}`, namespace, creationTimestamp: at },
      involvedObject: { kind: obj.kind, name: obj.metadata.name, namespace, uid: obj.metadata.uid },
      type: i % 5 ? 'Normal' : 'Warning',
      reason: reasons[i % reasons.length],
      message: `height ${1_000_000 + i} reached at attempt ${i % 97} (peer ${i % 13})`,
      firstTimestamp: at,
      lastTimestamp: at,
      count: 1,
    })
  }
  return snapshot
}
