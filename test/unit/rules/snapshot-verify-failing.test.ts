import { describe, expect, it } from 'vitest'
import type { Snapshot } from '../../../src/snapshot/types.js'
import { zapJson } from '../../cluster/scenarios/lib/logfmt.js'
import { type Editable, editable, findingsOf, findObject, runRule, useBundles } from '../../helpers/bundles.js'
import { appendManagerLog, dateBefore } from '../../helpers/snapshot-edits.js'

/** Bundles recorded from the test-cluster scenarios (scripts/record-examples.ts). */
const load = useBundles('snapshot-verify')

const INTEGRITY = 'cosmopilot.voluzi.com/snapshot-integrity-status'
const isCheckPod = (o: Editable) => o.kind === 'Pod' && /-ichk-/.test(o.metadata.name)

describe('snapshot-verify-failing', () => {
  it('stays quiet on a node whose checks pass while retention deletes old snapshots', () => {
    const s = load('snapshot-verify')
    for (const snap of editable(s).filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    s.objects = editable(s).filter((o) => !isCheckPod(o))
    expect(s.objects.some((o) => o.kind === 'Event' && o.reason === 'SnapshotDeleted')).toBe(true)
    expect(editable(s).filter((o) => o.kind === 'Event' && o.reason === 'IntegrityCheckStart').length).toBeGreaterThanOrEqual(3)
    expect(runRule(s, 'snapshot-verify-failing')).toEqual([])
  })

  it('counts the failed check Pod of a ChainNodeSet node, whose snapshots are named <set>-<group>-<timestamp>', () => {
    const s = load('snapshot-verify')
    const node = findObject(s, 'ChainNode', 'snap-0')
    node.metadata.name = 'arch-snap-0'
    node.metadata.labels = { ...node.metadata.labels, nodeset: 'arch', group: 'snap' }
    const rename = (name: string) => name.replace(/^snap-0-(?=\d{14})/, 'arch-snap-')
    for (const o of editable(s)) {
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
    for (const snap of editable(s).filter((o) => o.kind === 'VolumeSnapshot')) snap.metadata.annotations![INTEGRITY] = 'ok'
    const pod = editable(s).find(isCheckPod)!
    pod.metadata.name = pod.metadata.name.replace(/^snap-0-/, 'snap-0-archive-')
    pod.metadata.labels!['volume-snapshot'] = pod.metadata.labels!['volume-snapshot'].replace(/^snap-0-/, 'snap-0-archive-')
    expect(runRule(s, 'snapshot-verify-failing')).toEqual([])
  })
})

describe('specific rules read the operator log as well as Events', () => {
  it('snapshot-verify-failing: corruption the operator only logged', () => {
    const unmarked = (s: Snapshot) => {
      for (const snap of s.objects.filter((o) => o.kind === 'VolumeSnapshot'))
        delete snap.metadata.annotations?.['cosmopilot.voluzi.com/snapshot-integrity-status']
      s.objects = s.objects.filter((o) => !(o.kind === 'Pod' && /-ichk/.test(o.metadata.name)) && !(o.kind === 'Event' && o.reason === 'SnapshotDeleted'))
      return s
    }
    expect(findingsOf(unmarked(load('snapshot-verify')), 'snapshot-verify-failing')).toEqual([])
    const s = unmarked(load('snapshot-verify'))
    const fields = { ChainNode: { name: 'snap-0', namespace: 'sc-snapshot-verify' }, namespace: 'sc-snapshot-verify', name: 'snap-0' }
    appendManagerLog(s, [
      zapJson(dateBefore(s, 600), 'info', undefined, 'data integrity check finished. Data is corrupted.', {
        ...fields,
        reconcileID: 'c1',
        snapshot: 'snap-0-1',
      }),
      zapJson(dateBefore(s, 599), 'info', undefined, 're-creating snapshot', { ...fields, reconcileID: 'c1' }),
    ])
    const [finding] = findingsOf(s, 'snapshot-verify-failing')
    expect(finding.summary).toMatch(/^snapshot integrity check failing \(1 corrupted/)
    expect(finding.evidence.some((e) => /Data is corrupted/.test(e.text))).toBe(true)
  })
})
