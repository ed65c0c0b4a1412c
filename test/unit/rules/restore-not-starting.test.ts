import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { reconcilerError } from '../../cluster/scenarios/lib/logfmt.js'
import { findingsOf, findObject, runRule, useBundles } from '../../helpers/bundles.js'
import { appendManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('healthy', 'restore-not-starting')

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

describe('specific rules read the operator log as well as Events', () => {
  it('restore-not-starting: the source is missing by the operator log when the snapshot list was forbidden', () => {
    const forbidden = (s: Snapshot) => {
      s.collectionErrors.push({ what: 'list volumesnapshots in sc-restore-not-starting', reason: 'forbidden', message: 'forbidden' })
      return s
    }
    expect(findingsOf(forbidden(load('restore-not-starting')), 'restore-not-starting')[0].data).toMatchObject({ sourceMissing: false })
    const s = forbidden(load('restore-not-starting'))
    appendManagerLog(s, [
      reconcilerError(
        dateBefore(s, 20),
        'ChainNode',
        'sc-restore-not-starting',
        'restore-0',
        'r-1',
        'volumesnapshots.snapshot.storage.k8s.io "missing-snapshot" not found',
      ),
    ])
    const after = findingsOf(s, 'restore-not-starting')[0]
    expect(after.data).toMatchObject({ sourceMissing: true })
    expect(after.evidence.some((e) => e.kind === 'log' && /missing-snapshot" not found/.test(e.text))).toBe(true)
  })
})
