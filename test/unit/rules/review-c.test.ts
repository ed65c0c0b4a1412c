import { describe, expect, it } from 'vitest'
import type { KubeObject } from '../../../src/snapshot/types.js'
import { findObject, runRule, useBundles } from '../../helpers/bundles.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('snapshot-verify', 'healthy', 'restore-not-starting', 'profiling-unavailable')

const INTEGRITY = 'cosmopilot.voluzi.com/snapshot-integrity-status'
const isCheckPod = (o: KubeObject) => o.kind === 'Pod' && /-ichk-/.test(o.metadata.name)

describe('snapshot-verify-failing', () => {
  it('stays quiet on a node whose checks pass while retention deletes old snapshots', () => {
    const s = load('snapshot-verify')
    for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    s.objects = s.objects.filter((o) => !isCheckPod(o))
    expect(s.objects.some((o) => o.kind === 'Event' && o.reason === 'SnapshotDeleted')).toBe(true)
    expect(s.objects.filter((o) => o.kind === 'Event' && o.reason === 'IntegrityCheckStart').length).toBeGreaterThanOrEqual(3)
    expect(runRule(s, 'snapshot-verify-failing')).toEqual([])
  })

  it('counts the failed check Pod of a ChainNodeSet node, whose snapshots are named <set>-<group>-<timestamp>', () => {
    const s = load('snapshot-verify')
    const node = findObject(s, 'ChainNode', 'snap-0')
    node.metadata.name = 'arch-snap-0'
    node.metadata.labels = { ...node.metadata.labels, nodeset: 'arch', group: 'snap' }
    const rename = (name: string) => name.replace(/^snap-0-(?=\d{14})/, 'arch-snap-')
    for (const o of s.objects) {
      if (o.kind === 'Event' && o.involvedObject?.kind === 'ChainNode') o.involvedObject.name = 'arch-snap-0'
      if (o.kind === 'Event' && typeof o.message === 'string') o.message = o.message.replace(/snap-0-(?=\d{14})/, 'arch-snap-')
      if (o.kind === 'VolumeSnapshot') {
        o.metadata.labels!['chain-node'] = 'arch-snap-0'
        o.metadata.annotations![INTEGRITY] = 'ok'
        o.metadata.name = rename(o.metadata.name)
      }
      if (isCheckPod(o)) {
        o.metadata.name = rename(o.metadata.name)
        o.metadata.labels!['volume-snapshot'] = rename(o.metadata.labels!['volume-snapshot'])
      }
      if (['Pod', 'PersistentVolumeClaim', 'ConfigMap', 'Service'].includes(o.kind) && o.metadata.name === 'snap-0') o.metadata.name = 'arch-snap-0'
    }
    const [finding] = runRule(s, 'snapshot-verify-failing')
    expect(finding?.data).toMatchObject({ oomKilled: true })
    expect(finding.evidence.some((e) => e.source.includes('arch-snap-') && /OOMKilled|Error/.test(e.text))).toBe(true)
  })

  it("ignores the check Pod of another node's snapshot that merely starts with the node's name", () => {
    const s = load('snapshot-verify')
    for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    const pod = s.objects.find(isCheckPod)!
    pod.metadata.name = pod.metadata.name.replace(/^snap-0-/, 'snap-0-archive-')
    pod.metadata.labels!['volume-snapshot'] = pod.metadata.labels!['volume-snapshot'].replace(/^snap-0-/, 'snap-0-archive-')
    expect(runRule(s, 'snapshot-verify-failing')).toEqual([])
  })
})

describe('restore-not-starting', () => {
  const restoredHealthy = () => {
    const s = load('healthy')
    const node = findObject(s, 'ChainNode', 'fullnode-0')
    node.spec.persistence = { ...node.spec.persistence, restoreFromSnapshot: { name: 'fullnode-0-20261101000000' } }
    findObject(s, 'Pod', 'fullnode-0').status.phase = 'Pending'
    return s
  }

  it('says nothing once the restored PVC is Bound, though retention has deleted the source snapshot since', () => {
    const s = restoredHealthy()
    expect(findObject(s, 'PersistentVolumeClaim', 'fullnode-0').status.phase).toBe('Bound')
    expect(s.objects.some((o) => o.kind === 'VolumeSnapshot' && o.metadata.name === 'fullnode-0-20261101000000')).toBe(false)
    expect(runRule(s, 'restore-not-starting')).toEqual([])
    findObject(s, 'PersistentVolumeClaim', 'fullnode-0').status.phase = 'Pending'
    expect(runRule(s, 'restore-not-starting')[0]?.data).toMatchObject({ sourceMissing: true })
  })

  it('does not blame the storage class when StorageClasses and VolumeSnapshotClasses could not be listed', () => {
    const s = load('restore-not-starting')
    s.objects = s.objects.filter((o) => !['StorageClass', 'VolumeSnapshotClass'].includes(o.kind))
    s.collectionErrors.push(
      { what: 'list storageclasses', reason: 'forbidden', message: 'storageclasses.storage.k8s.io is forbidden' },
      { what: 'list volumesnapshotclasses', reason: 'forbidden', message: 'volumesnapshotclasses.snapshot.storage.k8s.io is forbidden' },
    )
    const [finding] = runRule(s, 'restore-not-starting')
    expect(finding.data).toMatchObject({ sourceMissing: true, noSnapshotSupport: false })
    expect(finding.cause).not.toMatch(/storage class/)
  })

  it("names the PVC's storage class when that class is not in the cluster", () => {
    const s = load('restore-not-starting')
    expect(findObject(s, 'PersistentVolumeClaim', 'restore-0').spec.storageClassName).toBe('fixed')
    s.objects = s.objects.filter((o) => !(o.kind === 'StorageClass' && o.metadata.name === 'fixed'))
    expect(runRule(s, 'restore-not-starting')[0].cause).toMatch(/storage class fixed lacks snapshot data source support/)
  })
})

describe('profiling-unavailable', () => {
  it("ignores a port conflict of node-utils' previous run when the current run holds the port", () => {
    expect(runRule(load('profiling-unavailable'), 'profiling-unavailable')).toHaveLength(1)
    const s = load('profiling-unavailable')
    const current = s.logs.find((l) => l.pod === 'prof-0' && l.container === 'node-utils' && !l.previous)!
    s.logs.push({ ...current, previous: true })
    current.text = current.text.replace(/level=warning msg="profiling disabled[^\n]*/, 'level=info msg="pprof listening on 127.0.0.1:6666"')
    expect(current.text).not.toMatch(/profiling disabled/)
    expect(runRule(s, 'profiling-unavailable')).toEqual([])
  })
})
